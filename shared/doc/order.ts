import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * Sibling order: pages are sorted by their fractional-index key, ties broken
 * by id. Ties happen when two replicas insert at the same place concurrently
 * (both compute the same key); breaking them by id keeps every replica's
 * order identical without any coordination.
 */

/** What ordering needs to know about a sibling. */
export interface Ordered {
  id: string;
  index: string;
}

/** Compare by key, then id. Plain `<` on purpose: keys compare by code unit, never by locale. */
export function compareOrdered(a: Ordered, b: Ordered): number {
  if (a.index !== b.index) return a.index < b.index ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** Where to insert among siblings: before and/or after a sibling id; neither means "at the end". */
export interface SiblingPosition {
  before?: string;
  after?: string;
}

/** The outcome of placing a page: its new key, plus re-keyed siblings when the list had to be renumbered. */
export interface Placement {
  index: string;
  rekeyed: Map<string, string>;
}

function validKey(k: string): boolean {
  try {
    generateKeyBetween(k, null);
    return true;
  } catch {
    return false;
  }
}

/**
 * The key for a page placed at `pos` among `siblings` (sorted with
 * compareOrdered, not containing the page itself). When no key fits — the
 * neighbours share a key after concurrent inserts, or a peer stored an
 * invalid key — all siblings get fresh evenly spread keys, in their current
 * order with the page inserted, and are returned in `rekeyed`.
 *
 * @throws Error when `before`/`after` is not one of `siblings` or they contradict each other.
 */
export function placeAmong(siblings: readonly Ordered[], pos: SiblingPosition): Placement {
  const at = (id: string) => {
    const i = siblings.findIndex((s) => s.id === id);
    if (i < 0) throw new Error(`page "${id}" is not a sibling at the target position`);
    return i;
  };
  let insertAt: number;
  if (pos.before !== undefined && pos.after !== undefined) {
    insertAt = at(pos.before);
    if (at(pos.after) !== insertAt - 1) throw new Error('"after" and "before" are not adjacent siblings');
  } else if (pos.before !== undefined) insertAt = at(pos.before);
  else if (pos.after !== undefined) insertAt = at(pos.after) + 1;
  else insertAt = siblings.length;

  const prev = siblings[insertAt - 1]?.index ?? null;
  const next = siblings[insertAt]?.index ?? null;
  if (
    (prev === null || validKey(prev)) &&
    (next === null || validKey(next)) &&
    (prev === null || next === null || prev < next)
  ) {
    return { index: generateKeyBetween(prev, next), rekeyed: new Map() };
  }
  const keys = generateNKeysBetween(null, null, siblings.length + 1);
  const rekeyed = new Map<string, string>();
  let k = 0;
  for (let i = 0; i <= siblings.length; i++) {
    if (i === insertAt) k++;
    const s = siblings[i];
    if (s && s.index !== keys[k]) rekeyed.set(s.id, keys[k]!);
    k++;
  }
  return { index: keys[insertAt]!, rekeyed };
}
