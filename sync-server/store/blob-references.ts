import type { Queryable } from './db';

/**
 * What keeps a blob alive: the places that name stored bytes by their sha256.
 * The collector of unused blobs deletes a blob only when none of these name
 * it (and it is older than its grace period).
 *
 * - a revision's files (spaces and change requests, deleted spaces until their
 *   purge; revisions are immutable, so history keeps its files);
 * - a live document (a space's or change request's), even with edits not in a
 *   revision yet: its stored state and update log are searched for the digest
 *   (Yjs stores each string as contiguous UTF-8, so a file entry's `sha256`
 *   appears verbatim). This reads every document, so it only runs for the few
 *   digests the checks above left;
 * - an upload (`storage_uploads`): the uploader holds the key to its bytes;
 * - any settings that hold URLs which may be download links of our files
 *   (`/files/<sha256>/…`): site customization (logos, favicons), sites and
 *   their sections, organizations (logo, default content). These are read as
 *   text for anything shaped like a digest, so a new URL field is covered
 *   without changing this file.
 */

/** Tables (as whole rows) whose text may name a blob in a URL. Small: one row per site/section/organization. */
const URL_HOLDERS = ['site_customizations', 'sites', 'site_sections', 'site_section_groups', 'organizations'];

/** How many digests one query checks. */
const CHUNK = 1000;

/** The digests among `sha256s` that something still uses. */
export async function usedBlobs(db: Queryable, sha256s: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  if (sha256s.length === 0) return used;
  for (let i = 0; i < sha256s.length; i += CHUNK) {
    const rows = await db.query<{ sha: string }>(
      `SELECT c.sha FROM unnest($1::text[]) AS c(sha)
        WHERE EXISTS (SELECT 1 FROM storage_uploads u WHERE u.sha256 = c.sha)
           OR EXISTS (SELECT 1 FROM revisions r
                       WHERE r.files @> jsonb_build_array(jsonb_build_object('sha256', c.sha)))`,
      [sha256s.slice(i, i + CHUNK)],
    );
    for (const r of rows) used.add(r.sha);
  }
  const wanted = new Set(sha256s);
  for (const sha of await digestsInUrls(db)) if (wanted.has(sha)) used.add(sha);
  const left = sha256s.filter((s) => !used.has(s));
  for (let i = 0; i < left.length; i += CHUNK) {
    const rows = await db.query<{ sha: string }>(
      `SELECT c.sha FROM unnest($1::text[]) AS c(sha)
        WHERE EXISTS (SELECT 1 FROM doc_states s WHERE position(convert_to(c.sha, 'UTF8') IN s.state) > 0)
           OR EXISTS (SELECT 1 FROM doc_updates u WHERE position(convert_to(c.sha, 'UTF8') IN u.data) > 0)`,
      [left.slice(i, i + CHUNK)],
    );
    for (const r of rows) used.add(r.sha);
  }
  return used;
}

/** Every sha256-shaped string in the rows of URL_HOLDERS. */
async function digestsInUrls(db: Queryable): Promise<Set<string>> {
  const found = new Set<string>();
  for (const table of URL_HOLDERS) {
    const rows = await db.query<{ sha: string }>(
      `SELECT DISTINCT m[1] AS sha FROM ${table} t, regexp_matches(row_to_json(t)::text, '([0-9a-f]{64})', 'g') AS m`,
    );
    for (const r of rows) found.add(r.sha);
  }
  return found;
}
