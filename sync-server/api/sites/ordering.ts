import { generateKeyBetween } from 'fractional-indexing';
import { badRequest } from '../../http/errors';

/**
 * Ordering of site items (sections, groups, site spaces) among their
 * siblings with fractional-index keys, so a move rewrites one row.
 */
export interface Ordered {
  id: string;
  position: string;
}

/** Key for a new last item. */
export function keyAtEnd(siblings: readonly Ordered[]): string {
  const last = siblings.reduce<string | null>((max, s) => (max === null || s.position > max ? s.position : max), null);
  return generateKeyBetween(last, null);
}

/** A move request: place the item before and/or after siblings (ids); neither = at the end. */
export interface MovePosition {
  before?: string;
  after?: string;
}

/**
 * The new key of `movingId` among `siblings` (in order, the item included).
 * Errors (400), as the spec lists them: a position naming the item itself or
 * something that is not a sibling ("invalid position"), a before/after pair
 * that are not neighbours, and a move that would not change anything.
 */
export function keyForMove(
  siblings: readonly Ordered[],
  movingId: string,
  position: MovePosition,
  what: string,
): string {
  const { before, after } = position;
  if (before === movingId || after === movingId)
    throw badRequest(`Invalid position: a ${what} cannot be placed relative to itself`);
  const others = siblings.filter((s) => s.id !== movingId);
  const indexOf = (id: string) => {
    const i = others.findIndex((s) => s.id === id);
    if (i < 0) throw badRequest(`Invalid position: ${what} "${id}" is not a sibling of the moved ${what}`);
    return i;
  };
  let low: number;
  let high: number;
  if (before !== undefined && after !== undefined) {
    high = indexOf(before);
    low = indexOf(after);
    if (high !== low + 1)
      throw badRequest('Invalid position: "after" and "before" must be adjacent, with "after" first');
  } else if (before !== undefined) {
    high = indexOf(before);
    low = high - 1;
  } else if (after !== undefined) {
    low = indexOf(after);
    high = low + 1;
  } else {
    low = others.length - 1;
    high = others.length;
  }
  const current = siblings.findIndex((s) => s.id === movingId);
  // After removing the item, it returns to index `current` exactly when it lands between the same neighbours.
  if (current === low + 1) throw badRequest(`The move would not change anything: the ${what} is already there`);
  const lowKey = others[low]?.position ?? null;
  const highKey = others[high]?.position ?? null;
  // Equal keys can exist after concurrent inserts; open a gap after the lower one then.
  if (lowKey !== null && highKey !== null && lowKey >= highKey) return generateKeyBetween(lowKey, null);
  return generateKeyBetween(lowKey, highKey);
}
