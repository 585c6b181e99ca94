import { queryOne, type Queryable } from './db';

/**
 * The translations repository (migration 0023): translations of an organization, the state their
 * runs leave behind, and their translation memory. Plain SQL and row types; runs are
 * api/translations/run-job.ts, who may do what is policy's.
 */

/** What the last run read and wrote for one source page (see run-state.ts). */
export interface PageState {
  /** Hash of the source page's text and the settings it was translated with. */
  source: string;
  /** Hash of the text written into the result page. */
  result: string;
  /** Hash of a translation proposed in a change request (the result page had been edited by hand). */
  proposed?: string;
}

/** A `translations` row, with the state of its newest run (TRANSLATION_SELECT). */
export interface TranslationRow {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: unknown;
  result_space_id: string | null;
  result_revision_id: string | null;
  page_state: Record<string, PageState>;
  runs: number;
  total_words: string | number;
  total_duration_ms: string | number;
  latest_run_duration_ms: string | number;
  latest_pages: number;
  latest_words: number;
  job_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  job_state: string | null;
  job_error_code: string | null;
  job_error_message: string | null;
  job_progress: unknown;
  job_result: unknown;
  job_created_at: Date | null;
  job_started_at: Date | null;
  job_finished_at: Date | null;
}

const TRANSLATION_SELECT = `SELECT t.*, j.state AS job_state, j.error_code AS job_error_code,
  j.error_message AS job_error_message, j.progress AS job_progress, j.result AS job_result,
  j.created_at AS job_created_at, j.started_at AS job_started_at, j.finished_at AS job_finished_at
  FROM translations t LEFT JOIN jobs j ON j.id = t.job_id`;

export interface NewTranslation {
  id: string;
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  instructions: unknown;
  createdBy: string;
}

export async function insertTranslationRow(db: Queryable, t: NewTranslation, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO translations (id, organization_id, source_space_id, source_language, language, instructions, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [
      t.id,
      t.organizationId,
      t.sourceSpaceId,
      t.sourceLanguage,
      t.language,
      JSON.stringify(t.instructions),
      t.createdBy,
      now,
    ],
  );
}

export function findTranslation(db: Queryable, organizationId: string, id: string) {
  return queryOne<TranslationRow>(db, `${TRANSLATION_SELECT} WHERE t.id = $1 AND t.organization_id = $2`, [
    id,
    organizationId,
  ]);
}

export function findTranslationById(db: Queryable, id: string) {
  return queryOne<TranslationRow>(db, `${TRANSLATION_SELECT} WHERE t.id = $1`, [id]);
}

export function findTranslationOf(db: Queryable, sourceSpaceId: string, language: string) {
  return queryOne<TranslationRow>(db, `${TRANSLATION_SELECT} WHERE t.source_space_id = $1 AND t.language = $2`, [
    sourceSpaceId,
    language,
  ]);
}

/** Every translation of the organization, oldest first (filtered by who may see them in code). */
export function listTranslationRows(db: Queryable, organizationId: string) {
  return db.query<TranslationRow>(`${TRANSLATION_SELECT} WHERE t.organization_id = $1 ORDER BY t.created_at, t.id`, [
    organizationId,
  ]);
}

export async function setInstructions(db: Queryable, id: string, instructions: unknown, now: Date) {
  await db.query('UPDATE translations SET instructions = $2, updated_at = $3 WHERE id = $1', [
    id,
    JSON.stringify(instructions),
    now,
  ]);
}

export async function setTranslationJob(db: Queryable, id: string, jobId: string, now: Date) {
  await db.query('UPDATE translations SET job_id = $2, updated_at = $3 WHERE id = $1', [id, jobId, now]);
}

export async function setResultSpace(db: Queryable, id: string, spaceId: string) {
  await db.query('UPDATE translations SET result_space_id = $2 WHERE id = $1', [id, spaceId]);
}

/** What a successful run leaves: the result revision, the page state, and its figures added to the totals. */
export interface RunRecord {
  resultRevision: string | null;
  pageState: Record<string, PageState>;
  durationMs: number;
  pages: number;
  words: number;
}

export async function recordRun(db: Queryable, id: string, run: RunRecord, now: Date): Promise<void> {
  await db.query(
    `UPDATE translations SET
       result_revision_id = COALESCE($2, result_revision_id), page_state = $3, runs = runs + 1,
       total_words = total_words + $4, total_duration_ms = total_duration_ms + $5,
       latest_run_duration_ms = $5, latest_pages = $6, latest_words = $4, updated_at = $7
     WHERE id = $1`,
    [id, run.resultRevision, JSON.stringify(run.pageState), run.words, Math.round(run.durationMs), run.pages, now],
  );
}

export async function deleteTranslationRow(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('DELETE FROM translations WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}

/** The translation memory of one translation (see migration 0023). */
export async function memoryGet(db: Queryable, translationId: string, keys: readonly string[]) {
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const rows = await db.query<{ key: string; text: string }>(
    'SELECT key, text FROM translation_memory WHERE translation_id = $1 AND key = ANY($2::text[])',
    [translationId, keys],
  );
  for (const r of rows) out.set(r.key, r.text);
  return out;
}

export async function memoryPut(db: Queryable, translationId: string, entries: ReadonlyMap<string, string>, now: Date) {
  if (entries.size === 0) return;
  const keys = [...entries.keys()];
  await db.query(
    `INSERT INTO translation_memory (translation_id, key, text, created_at)
     SELECT $1, k, t, $4 FROM unnest($2::text[], $3::text[]) AS u(k, t)
     ON CONFLICT (translation_id, key) DO UPDATE SET text = EXCLUDED.text`,
    [translationId, keys, keys.map((k) => entries.get(k)!), now],
  );
}
