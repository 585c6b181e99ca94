import type { JobRow, JobState } from './jobs';
import type { Queryable } from './db';

/**
 * Import runs are jobs of the job runner (kind `content-import`): the job row holds the run's
 * source and target (payload), its progress and its outcome, so a run needs no table of its own.
 * These are the reads the import-run API makes of them.
 */

export const CONTENT_IMPORT_JOB = 'content-import';

/** GitBook's run status filter as job states (`active`: not started or running). */
const STATES: Record<string, JobState[]> = {
  active: ['queued', 'running'],
  pending: ['queued'],
  'in-progress': ['running'],
  completed: ['succeeded'],
  failed: ['failed'],
  cancelled: ['cancelled'],
};

export interface ImportRunFilter {
  space?: string;
  changeRequest?: string;
  site?: string;
  status?: string;
}

/** An organization's import runs, newest first (every one: the caller filters what it may see). */
export async function listImportRuns(
  db: Queryable,
  organizationId: string,
  filter: ImportRunFilter,
): Promise<JobRow[]> {
  const where = ['kind = $1', 'organization_id = $2'];
  const params: unknown[] = [CONTENT_IMPORT_JOB, organizationId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.space) add("payload->'target'->>'space' = ?", filter.space);
  if (filter.changeRequest) add("payload->'target'->>'changeRequest' = ?", filter.changeRequest);
  if (filter.site) add("payload->>'site' = ?", filter.site);
  if (filter.status) add('state = ANY(?)', STATES[filter.status]);
  return db.query<JobRow>(
    `SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT 10000`,
    params,
  );
}

/** One run by id within its organization, or undefined. */
export async function findImportRun(db: Queryable, organizationId: string, id: string): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1 AND kind = $2 AND organization_id = $3', [
    id,
    CONTENT_IMPORT_JOB,
    organizationId,
  ]);
  return rows[0];
}

/** The site a space belongs to when it belongs to exactly one (GitBook's `site` of a run), else undefined. */
export async function onlySiteOfSpace(db: Queryable, spaceId: string): Promise<string | undefined> {
  const rows = await db.query<{ site_id: string }>(
    'SELECT DISTINCT site_id FROM site_spaces WHERE space_id = $1 LIMIT 2',
    [spaceId],
  );
  return rows.length === 1 ? rows[0]!.site_id : undefined;
}
