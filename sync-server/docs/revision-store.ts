import { createHash } from 'node:crypto';
import type { Queryable } from '../store/db';

/**
 * Persistence of revisions. A page is stored once per distinct content
 * (content-addressed by the hash of its JSON without its children); a
 * revision row holds the ordered tree of page hashes plus files, reusable
 * contents and variables. Revisions are immutable, so loaded ones can be
 * cached forever by id.
 */

/** A materialized page as stored: any JSON object; `pages` holds its children. */
export interface StoredPage {
  id: string;
  pages?: StoredPage[];
  [field: string]: unknown;
}

export interface RevisionContent {
  pages: StoredPage[];
  files: object[];
  reusableContents: object[];
  variables: Record<string, string>;
}

export interface RevisionRecord extends RevisionContent {
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  parents: string[];
  type: string;
  createdAt: Date;
}

export interface NewRevision extends RevisionContent {
  id: string;
  spaceId: string;
  changeRequestId?: string | null;
  parents: string[];
  type?: string;
  createdBy?: string | null;
  createdAt: Date;
}

type TreeNode = { h: string; c: TreeNode[] };

/** Stable JSON: keys sorted, so equal pages hash equally whatever the key order. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Hashes and bodies computed per page object: materialized snapshots reuse
 * unchanged page objects by reference, so consecutive revisions (and the
 * search indexer) hash only what changed.
 */
const hashMemo = new WeakMap<object, { hash: string; json: string }>();

function hashed(page: StoredPage): { hash: string; json: string } {
  let entry = hashMemo.get(page);
  if (!entry) {
    const { pages: _children, ...body } = page;
    const json = stableStringify(body);
    entry = { hash: createHash('sha256').update(json).digest('hex'), json };
    hashMemo.set(page, entry);
  }
  return entry;
}

/** The content hash of a page without its children (equal content, equal hash). */
export function pageHash(page: StoredPage): string {
  return hashed(page).hash;
}

/** Splits a page tree into content-addressed page bodies and a tree of hashes. */
function flatten(pages: readonly StoredPage[], bodies: Map<string, string>): TreeNode[] {
  return pages.map((page) => {
    const { hash, json } = hashed(page);
    bodies.set(hash, json);
    return { h: hash, c: flatten(page.pages ?? [], bodies) };
  });
}

/** Writes a revision (pages first, deduplicated), in the caller's transaction (its page lock lasts until the transaction ends). */
export async function saveRevision(db: Queryable, rev: NewRevision): Promise<void> {
  const bodies = new Map<string, string>();
  const tree = flatten(rev.pages, bodies);
  const hashes = [...bodies.keys()];
  // Shared side of the page lock: many revisions are saved at once, but never while unused pages are deleted.
  await db.query('SELECT pg_advisory_xact_lock_shared($1)', [REVISION_PAGES_LOCK]);
  if (hashes.length > 0) {
    const known = new Set(
      (await db.query<{ hash: string }>('SELECT hash FROM revision_pages WHERE hash = ANY($1::text[])', [hashes])).map(
        (r) => r.hash,
      ),
    );
    const fresh = hashes.filter((h) => !known.has(h));
    // One statement for all new pages: unnest keeps the round trips constant.
    if (fresh.length > 0) {
      await db.query(
        'INSERT INTO revision_pages (hash, page) SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (hash) DO NOTHING',
        [fresh, fresh.map((h) => bodies.get(h)!)],
      );
    }
  }
  await db.query(
    `INSERT INTO revisions (id, space_id, change_request_id, parents, type, tree, files, reusable_contents, variables, created_by, created_at, page_hashes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT id FROM users WHERE id = $10), $11, $12)`,
    [
      rev.id,
      rev.spaceId,
      rev.changeRequestId ?? null,
      rev.parents,
      rev.type ?? 'edits',
      JSON.stringify(tree),
      JSON.stringify(rev.files),
      JSON.stringify(rev.reusableContents),
      JSON.stringify(rev.variables),
      rev.createdBy ?? null,
      rev.createdAt,
      hashes,
    ],
  );
}

/**
 * Advisory lock key guarding revision_pages: saving a revision holds it shared
 * (in its transaction), deleting unused pages holds it exclusively, so a page
 * cannot be deleted between a save finding it present and the save committing
 * the revision that uses it.
 */
const REVISION_PAGES_LOCK = 0x70a6e5;

/** The pages used by the revisions of these spaces (candidates for deletion once the spaces are purged). */
export async function pagesOfSpaces(tx: Queryable, spaceIds: readonly string[]): Promise<string[]> {
  const rows = await tx.query<{ hash: string }>(
    'SELECT DISTINCT unnest(page_hashes) AS hash FROM revisions WHERE space_id = ANY($1::text[])',
    [spaceIds],
  );
  return rows.map((r) => r.hash);
}

/**
 * Deletes those of `candidates` that no revision uses any more. Must run in a
 * transaction (the lock lasts until it ends). Returns how many were deleted.
 */
export async function deleteUnusedPages(tx: Queryable, candidates: readonly string[]): Promise<number> {
  if (candidates.length === 0) return 0;
  await tx.query('SELECT pg_advisory_xact_lock($1)', [REVISION_PAGES_LOCK]);
  const rows = await tx.query<{ hash: string }>(
    `DELETE FROM revision_pages rp WHERE rp.hash = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.page_hashes @> ARRAY[rp.hash])
     RETURNING rp.hash`,
    [candidates],
  );
  return rows.length;
}

interface RevisionRow {
  id: string;
  space_id: string;
  change_request_id: string | null;
  parents: string[];
  type: string;
  tree: TreeNode[];
  files: object[];
  reusable_contents: object[];
  variables: Record<string, string>;
  created_at: Date;
}

function hashesOf(tree: TreeNode[], out: Set<string>): Set<string> {
  for (const n of tree) {
    out.add(n.h);
    hashesOf(n.c, out);
  }
  return out;
}

/** Loads a revision with its full page tree, or undefined. */
export async function loadRevision(db: Queryable, id: string): Promise<RevisionRecord | undefined> {
  const row = (
    await db.query<RevisionRow>(
      'SELECT id, space_id, change_request_id, parents, type, tree, files, reusable_contents, variables, created_at FROM revisions WHERE id = $1',
      [id],
    )
  )[0];
  if (!row) return undefined;
  const hashes = [...hashesOf(row.tree, new Set())];
  const bodies = new Map<string, Omit<StoredPage, 'pages'>>();
  if (hashes.length > 0) {
    for (const r of await db.query<{ hash: string; page: Omit<StoredPage, 'pages'> }>(
      'SELECT hash, page FROM revision_pages WHERE hash = ANY($1::text[])',
      [hashes],
    )) {
      bodies.set(r.hash, r.page);
    }
  }
  const build = (nodes: TreeNode[]): StoredPage[] =>
    nodes.map((n) => ({ ...(bodies.get(n.h) as StoredPage), pages: build(n.c) }));
  return {
    id: row.id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    parents: row.parents,
    type: row.type,
    createdAt: row.created_at,
    pages: build(row.tree),
    files: row.files,
    reusableContents: row.reusable_contents,
    variables: row.variables,
  };
}
