import { generateKeyBetween } from 'fractional-indexing';
import type { Queryable } from '../../store/db';
import { badRequest } from '../../http/errors';

/**
 * Spaces and collections that share a parent are ordered together (as in the
 * app's sidebar) by fractional-index keys, so a move rewrites one row only.
 */
export interface Sibling {
  type: 'space' | 'collection';
  id: string;
  position: string;
}

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };
export interface Position {
  before?: ContentPointer;
  after?: ContentPointer;
}

/** Active spaces and collections directly under `parentId` (null = top level), in order. */
export async function siblingsOf(db: Queryable, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const rows = await db.query<Sibling>(
    `SELECT 'space' AS type, id, position FROM spaces
      WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
     UNION ALL
     SELECT 'collection' AS type, id, position FROM collections
      WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2`,
    [organizationId, parentId],
  );
  // Sort in code with a plain byte comparison: fractional-index keys are ASCII
  // and must not be ordered by a database collation.
  return rows.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
}

const pointerId = (p: ContentPointer) => (p.type === 'space' ? p.space : p.collection);

/** Key for a new last child. */
export function keyAtEnd(siblings: Sibling[]): string {
  return generateKeyBetween(siblings.at(-1)?.position ?? null, null);
}

/**
 * The key that places an item at `position` among `siblings` (the moving item
 * itself excluded). Without before/after it goes last. A pointer to something
 * that is not a sibling, or a before/after pair that are not neighbours, is a
 * 400 ("invalid position").
 */
export function keyForPosition(siblings: Sibling[], position: Position | undefined, movingId: string): string {
  const others = siblings.filter((s) => s.id !== movingId);
  if (!position || (!position.before && !position.after)) return keyAtEnd(others);
  const indexOf = (p: ContentPointer) => {
    const i = others.findIndex((s) => s.type === p.type && s.id === pointerId(p));
    if (i < 0)
      throw badRequest(`Invalid position: ${p.type} "${pointerId(p)}" is not a sibling in the target location`);
    return i;
  };
  let lowIndex: number;
  let highIndex: number;
  if (position.before && position.after) {
    highIndex = indexOf(position.before);
    lowIndex = indexOf(position.after);
    if (highIndex !== lowIndex + 1)
      throw badRequest('Invalid position: "after" and "before" must be adjacent, with "after" first');
  } else if (position.before) {
    highIndex = indexOf(position.before);
    lowIndex = highIndex - 1;
  } else {
    lowIndex = indexOf(position.after!);
    highIndex = lowIndex + 1;
  }
  const low = others[lowIndex]?.position ?? null;
  const high = others[highIndex]?.position ?? null;
  // Two siblings may share a key after concurrent inserts; then open a gap after the lower one.
  if (low !== null && high !== null && low >= high) return generateKeyBetween(low, null);
  return generateKeyBetween(low, high);
}

/** Whether `position` would leave the item exactly where it is. */
export function isSamePlace(siblings: Sibling[], position: Position | undefined, movingId: string): boolean {
  const i = siblings.findIndex((s) => s.id === movingId);
  if (i < 0) return false;
  if (!position || (!position.before && !position.after)) return true;
  const prev = siblings[i - 1];
  const next = siblings[i + 1];
  const matches = (p: ContentPointer | undefined, s: Sibling | undefined) =>
    !p || (s !== undefined && s.type === p.type && s.id === pointerId(p));
  return matches(position.after, prev) && matches(position.before, next);
}
