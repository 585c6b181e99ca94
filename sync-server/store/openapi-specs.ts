import { queryOne, type Queryable } from './db';

/**
 * The OpenAPI specs repository (migration 0020): specs of an organization, their processing state,
 * and their immutable versions. Plain SQL and row types; processing is `openapi-specs/`, who may do
 * what is policy's (organization `view` and `create-openapi-spec`).
 */

export type ProcessingState = 'pending' | 'progress' | 'complete';
export type SpecVisibility = 'private' | 'public';

/** One processing error as GitBook's OpenAPIErrorObject. */
export interface SpecError {
  message: string;
  code?: string;
}

/** An `openapi_specs` row, with the state of its newest processing job (SPEC_SELECT). */
export interface SpecRow {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  visibility: SpecVisibility;
  processing_state: ProcessingState;
  last_version_id: string | null;
  last_processed_at: Date | null;
  last_error_code: string | null;
  last_errors: SpecError[] | null;
  last_error_count: number;
  job_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** The newest job's state and error (null without a job): tells a job that died from one that runs. */
  job_state: string | null;
  job_error_code: string | null;
  job_error_message: string | null;
}

const SPEC_SELECT = `SELECT s.id, s.organization_id, s.slug, s.source_url, s.visibility, s.processing_state,
  s.last_version_id, s.last_processed_at, s.last_error_code, s.last_errors, s.last_error_count, s.job_id,
  s.created_at, s.updated_at, j.state AS job_state, j.error_code AS job_error_code, j.error_message AS job_error_message
  FROM openapi_specs s LEFT JOIN jobs j ON j.id = s.job_id`;

/** The version columns without the (large) content. */
export interface VersionRow {
  id: string;
  spec_id: string;
  seq: number;
  source_url: string | null;
  raw_format: 'json' | 'yaml';
  content_hash: string;
  spec_version: string;
  created_at: Date;
}

const VERSION_COLUMNS = 'id, spec_id, seq, source_url, raw_format, content_hash, spec_version, created_at';

export async function listSpecRows(
  db: Queryable,
  organizationId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: SpecRow[]; total: number }> {
  const rows = await db.query<SpecRow>(
    `${SPEC_SELECT} WHERE s.organization_id = $1 ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`,
    [organizationId, page.limit, page.offset],
  );
  const count = await queryOne<{ n: number }>(
    db,
    'SELECT count(*)::int AS n FROM openapi_specs WHERE organization_id = $1',
    [organizationId],
  );
  return { rows, total: count?.n ?? 0 };
}

export async function findSpecBySlug(
  db: Queryable,
  organizationId: string,
  slug: string,
): Promise<SpecRow | undefined> {
  return queryOne<SpecRow>(db, `${SPEC_SELECT} WHERE s.organization_id = $1 AND s.slug = $2`, [organizationId, slug]);
}

export async function findSpecById(db: Queryable, id: string): Promise<SpecRow | undefined> {
  return queryOne<SpecRow>(db, `${SPEC_SELECT} WHERE s.id = $1`, [id]);
}

/** Inserts a spec waiting for its first processing; undefined when the slug is taken (nothing written). */
export async function insertSpecRow(
  db: Queryable,
  spec: { id: string; organizationId: string; slug: string; sourceUrl: string | null; createdBy: string },
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO openapi_specs (id, organization_id, slug, source_url, processing_state, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6, $6) ON CONFLICT (organization_id, slug) DO NOTHING RETURNING id`,
    [spec.id, spec.organizationId, spec.slug, spec.sourceUrl, spec.createdBy, now],
  );
  return rows.length === 1;
}

/** A new source was given: the spec waits for `jobId`, which processes it. */
export async function markSpecPending(
  db: Queryable,
  id: string,
  sourceUrl: string | null,
  jobId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE openapi_specs SET source_url = $2, processing_state = 'pending', job_id = $3, updated_at = $4 WHERE id = $1`,
    [id, sourceUrl, jobId, now],
  );
}

export async function setSpecJob(db: Queryable, id: string, jobId: string): Promise<void> {
  await db.query('UPDATE openapi_specs SET job_id = $2 WHERE id = $1', [id, jobId]);
}

export async function setSpecVisibility(db: Queryable, id: string, visibility: SpecVisibility, now: Date) {
  await db.query('UPDATE openapi_specs SET visibility = $2, updated_at = $3 WHERE id = $1', [id, visibility, now]);
}

export async function deleteSpecRow(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM openapi_specs WHERE id = $1', [id]);
}

/**
 * Records what job `jobId` reports about the spec: its state, and the outcome of a finished
 * processing (errors cleared on success). Only while `jobId` is still the spec's newest job: a
 * superseded job's report would hide the newer one's.
 */
export async function reportSpecProcessing(
  db: Queryable,
  id: string,
  jobId: string,
  report:
    | { state: 'progress' | 'pending' }
    | { state: 'complete'; processedAt: Date; errorCode: string | null; errors: SpecError[]; errorCount: number },
  now: Date,
): Promise<void> {
  if (report.state !== 'complete') {
    await db.query(`UPDATE openapi_specs SET processing_state = $3, updated_at = $4 WHERE id = $1 AND job_id = $2`, [
      id,
      jobId,
      report.state,
      now,
    ]);
    return;
  }
  await db.query(
    `UPDATE openapi_specs SET processing_state = 'complete', last_processed_at = $3, last_error_code = $4,
       last_errors = $5, last_error_count = $6, updated_at = $7
     WHERE id = $1 AND job_id = $2`,
    [
      id,
      jobId,
      report.processedAt,
      report.errorCode,
      report.errors.length ? JSON.stringify(report.errors) : null,
      report.errorCount,
      now,
    ],
  );
}

/** The content of a new version (see migration 0020). */
export interface NewVersion {
  id: string;
  specId: string;
  sourceUrl: string | null;
  rawText: string;
  rawFormat: 'json' | 'yaml';
  filesystem: string;
  bundle: string;
  contentHash: string;
  specVersion: string;
}

/**
 * Adds a version unless the newest one has the same content hash, and points the spec at the
 * newest version. Answers the version added, or undefined when the content was unchanged.
 */
export async function addVersionIfChanged(db: Queryable, v: NewVersion, now: Date): Promise<VersionRow | undefined> {
  const latest = await queryOne<{ seq: number; content_hash: string }>(
    db,
    'SELECT seq, content_hash FROM openapi_spec_versions WHERE spec_id = $1 ORDER BY seq DESC LIMIT 1',
    [v.specId],
  );
  if (latest?.content_hash === v.contentHash) return undefined;
  const row = await queryOne<VersionRow>(
    db,
    `INSERT INTO openapi_spec_versions (id, spec_id, seq, source_url, raw_text, raw_format, filesystem, bundle,
       content_hash, spec_version, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${VERSION_COLUMNS}`,
    [
      v.id,
      v.specId,
      (latest?.seq ?? 0) + 1,
      v.sourceUrl,
      v.rawText,
      v.rawFormat,
      v.filesystem,
      v.bundle,
      v.contentHash,
      v.specVersion,
      now,
    ],
  );
  await db.query('UPDATE openapi_specs SET last_version_id = $2, updated_at = $3 WHERE id = $1', [v.specId, v.id, now]);
  return row;
}

/** Versions of a spec, newest first. */
export async function listVersionRows(
  db: Queryable,
  specId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: VersionRow[]; total: number }> {
  const rows = await db.query<VersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
    [specId, page.limit, page.offset],
  );
  const count = await queryOne<{ n: number }>(
    db,
    'SELECT count(*)::int AS n FROM openapi_spec_versions WHERE spec_id = $1',
    [specId],
  );
  return { rows, total: count?.n ?? 0 };
}

/** A version of the spec (`latest` for the newest), without its content. */
export async function findVersionRow(db: Queryable, specId: string, versionId: string | 'latest') {
  return versionId === 'latest'
    ? queryOne<VersionRow>(
        db,
        `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 ORDER BY seq DESC LIMIT 1`,
        [specId],
      )
    : queryOne<VersionRow>(db, `SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 AND id = $2`, [
        specId,
        versionId,
      ]);
}

/** One column of a version's content: the filesystem's JSON, the bundle's, or the raw entry text. */
export async function versionContent(
  db: Queryable,
  versionId: string,
  what: 'filesystem' | 'bundle' | 'raw_text',
): Promise<string | undefined> {
  const row = await queryOne<{ content: string }>(
    db,
    `SELECT ${what} AS content FROM openapi_spec_versions WHERE id = $1`,
    [versionId],
  );
  return row?.content;
}
