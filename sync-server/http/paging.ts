import { Type, type TSchema } from 'typebox';
import { badRequest } from './errors';

/** Page size when `limit` is absent. */
export const DEFAULT_LIMIT = 100;

/** The `page` and `limit` query parameters every list accepts. */
export const PagingQuery = {
  page: Type.Optional(
    Type.String({ description: "Opaque cursor from a previous response's next.page", maxLength: 200 }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Items per page (1..1000)' })),
};

/** The list envelope `{items, count, next?: {page}}` around an item schema. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    count: Type.Number(),
    next: Type.Optional(Type.Object({ page: Type.String() })),
  });
}

export interface PageRequest {
  offset: number;
  limit: number;
}

/**
 * Decodes `page`/`limit`. The cursor is opaque to callers (base64url JSON) so
 * the paging scheme can change without breaking them; a cursor that does not
 * decode is a 400, not a silent first page.
 */
export function pageRequest(query: { page?: string; limit?: number }): PageRequest {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!query.page) return { offset: 0, limit };
  try {
    const decoded = JSON.parse(Buffer.from(query.page, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof decoded.o === 'number' && Number.isInteger(decoded.o) && decoded.o >= 0)
      return { offset: decoded.o, limit };
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('Invalid page cursor: pass the next.page value of a previous response');
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** Builds the list envelope for one page of items out of `total`. */
export function listPage<T>(
  items: T[],
  total: number,
  req: PageRequest,
): { items: T[]; count: number; next?: { page: string } } {
  const nextOffset = req.offset + items.length;
  return nextOffset < total && items.length > 0
    ? { items, count: total, next: { page: encodeCursor(nextOffset) } }
    : { items, count: total };
}

/** Pages an in-memory array (for lists that are filtered in code). */
export function pageArray<T>(all: T[], req: PageRequest) {
  return listPage(all.slice(req.offset, req.offset + req.limit), all.length, req);
}
