import { queryOne, type Queryable } from './db';

/**
 * The history of a space: its own revisions (not those of change-request
 * forks), newest first, with their authors, and which pages each one changed.
 * Pages are stored content-addressed (revision-store.ts), so the pages a
 * revision changed are the hashes it holds that its first parent does not
 * (and the reverse): found from the hash arrays alone, without loading trees.
 */

export interface RevisionHistoryRow {
  id: string;
  type: string;
  parents: string[];
  created_at: Date;
  created_by: string | null;
  display_name: string | null;
  email: string | null;
  photo_url: string | null;
  /** Page hashes of this revision and of its first parent (empty for the first revision). */
  page_hashes: string[];
  parent_hashes: string[];
}

/** A changed page, as far as the history needs it (title and path from its stored body). */
export interface ChangedPageRow {
  hash: string;
  id: string;
  title: string | null;
  path: string | null;
}

/**
 * `$2`, when given, is a page id: only revisions where that page's stored
 * version differs from the parent's (it was created, edited, moved or deleted).
 */
const FROM_WHERE = `FROM revisions r
  LEFT JOIN revisions p ON p.id = r.parents[1]
  LEFT JOIN users u ON u.id = r.created_by
  WHERE r.space_id = $1 AND r.change_request_id IS NULL
    AND ($2::text IS NULL OR (
      SELECT array_agg(x ORDER BY x) FROM unnest(r.page_hashes) x WHERE x = ANY(SELECT hash FROM revision_pages WHERE page->>'id' = $2)
    ) IS DISTINCT FROM (
      SELECT array_agg(x ORDER BY x) FROM unnest(coalesce(p.page_hashes, '{}')) x WHERE x = ANY(SELECT hash FROM revision_pages WHERE page->>'id' = $2)
    ))`;

/** One page of a space's revisions, newest first, and how many there are in all. */
export async function listSpaceRevisions(
  db: Queryable,
  spaceId: string,
  page: { offset: number; limit: number },
  pageId?: string,
): Promise<{ rows: RevisionHistoryRow[]; total: number }> {
  const params = [spaceId, pageId ?? null];
  const count = await queryOne<{ n: string }>(db, `SELECT count(*) AS n ${FROM_WHERE}`, params);
  const rows = await db.query<RevisionHistoryRow>(
    `SELECT r.id, r.type, r.parents, r.created_at, r.created_by, u.display_name, u.email, u.photo_url,
            r.page_hashes, coalesce(p.page_hashes, '{}') AS parent_hashes
     ${FROM_WHERE}
     ORDER BY r.created_at DESC, r.id DESC LIMIT ${Number(page.limit)} OFFSET ${Number(page.offset)}`,
    params,
  );
  return { rows, total: Number(count?.n ?? 0) };
}

/** The id, title and path of stored page versions (not their bodies' text, which may be large). */
export async function changedPagesByHash(
  db: Queryable,
  hashes: readonly string[],
): Promise<Map<string, ChangedPageRow>> {
  if (hashes.length === 0) return new Map();
  const rows = await db.query<ChangedPageRow>(
    `SELECT hash, page->>'id' AS id, page->>'title' AS title, page->>'path' AS path
     FROM revision_pages WHERE hash = ANY($1::text[])`,
    [hashes],
  );
  return new Map(rows.map((r) => [r.hash, r]));
}
