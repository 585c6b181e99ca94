import { newId } from '../http/ids';
import { queryOne, type Queryable } from './db';

/**
 * The job queue's SQL (migration 0019). Every state change is one statement guarded by the
 * job's current state and lease owner, so two processes can never both run, finish or requeue
 * the same job: the loser's statement matches no row.
 */

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  /** Queue order (see migration 0019). */
  seq: string;
  kind: string;
  organization_id: string | null;
  subject: string | null;
  payload: unknown;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_after: Date;
  lease_owner: string | null;
  lease_until: Date | null;
  cancel_requested: boolean;
  progress: unknown;
  result: unknown;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NewJob {
  kind: string;
  payload: unknown;
  organizationId?: string;
  /** Jobs of one subject run one at a time, oldest first (e.g. `openapi:<specId>`). */
  subject?: string;
  maxAttempts?: number;
  runAfter?: Date;
}

/** Queues a job (inside the caller's transaction when `db` is one). */
export async function insertJob(db: Queryable, job: NewJob, now: Date): Promise<JobRow> {
  const row = await queryOne<JobRow>(
    db,
    `INSERT INTO jobs (id, kind, organization_id, subject, payload, state, max_attempts, run_after, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $8, $8) RETURNING *`,
    [
      newId(),
      job.kind,
      job.organizationId ?? null,
      job.subject ?? null,
      JSON.stringify(job.payload ?? null),
      job.maxAttempts ?? 3,
      job.runAfter ?? now,
      now,
    ],
  );
  return row!;
}

export async function getJob(db: Queryable, id: string): Promise<JobRow | undefined> {
  return queryOne<JobRow>(db, 'SELECT * FROM jobs WHERE id = $1', [id]);
}

/** The jobs of a subject, newest first. */
export async function jobsOfSubject(db: Queryable, subject: string, limit = 20): Promise<JobRow[]> {
  return db.query<JobRow>('SELECT * FROM jobs WHERE subject = $1 ORDER BY seq DESC LIMIT $2', [subject, limit]);
}

/**
 * Claims the oldest ready job of one of `kinds` for `owner` until `leaseUntil`: not before its
 * `run_after`, and only when no job of its subject runs and no older one of its subject waits.
 * Another process claiming at the same moment skips the locked row (SKIP LOCKED); one claiming
 * another job of the same subject hits the unique index and gets nothing.
 */
export async function claimJob(
  db: Queryable,
  kinds: readonly string[],
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<JobRow | undefined> {
  try {
    return await queryOne<JobRow>(
      db,
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = $2, lease_until = $4,
              updated_at = $3, started_at = COALESCE(started_at, $3)
       WHERE id = (
         SELECT j.id FROM jobs j
         WHERE j.state = 'queued' AND j.run_after <= $3 AND j.kind = ANY($1::text[])
           AND (j.subject IS NULL OR NOT EXISTS (
             SELECT 1 FROM jobs o WHERE o.subject = j.subject AND o.id <> j.id
               AND (o.state = 'running' OR (o.state = 'queued' AND o.seq < j.seq))))
         ORDER BY j.run_after, j.seq
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
       AND state = 'queued'
       RETURNING *`,
      [kinds, owner, now, leaseUntil],
    );
  } catch (err) {
    // Another process started a job of the same subject between our check and our update.
    if ((err as { code?: string }).code === '23505') return undefined;
    throw err;
  }
}

/** Extends a running job's lease; answers whether it is still ours and whether cancelling was asked. */
export async function renewLease(
  db: Queryable,
  id: string,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<{ cancelRequested: boolean } | undefined> {
  const row = await queryOne<{ cancel_requested: boolean }>(
    db,
    `UPDATE jobs SET lease_until = $4, updated_at = $3 WHERE id = $1 AND lease_owner = $2 AND state = 'running'
     RETURNING cancel_requested`,
    [id, owner, now, leaseUntil],
  );
  return row && { cancelRequested: row.cancel_requested };
}

/** Records progress of a running job (any JSON the job's kind defines). */
export async function saveProgress(db: Queryable, id: string, owner: string, progress: unknown, now: Date) {
  await db.query(
    `UPDATE jobs SET progress = $3, updated_at = $4 WHERE id = $1 AND lease_owner = $2 AND state = 'running'`,
    [id, owner, JSON.stringify(progress), now],
  );
}

/** Ends a running job this process holds; false when its lease was lost meanwhile. */
export async function finishJob(
  db: Queryable,
  id: string,
  owner: string,
  outcome:
    | { state: 'succeeded'; result: unknown }
    | { state: 'failed' | 'cancelled'; code: string; message: string }
    | { state: 'queued'; code: string; message: string; runAfter: Date; refundAttempt?: boolean },
  now: Date,
): Promise<boolean> {
  const rows =
    outcome.state === 'succeeded'
      ? await db.query(
          `UPDATE jobs SET state = 'succeeded', result = $3, lease_owner = NULL, lease_until = NULL, updated_at = $4,
                  finished_at = $4, error_code = NULL, error_message = NULL
           WHERE id = $1 AND lease_owner = $2 AND state = 'running' RETURNING id`,
          [id, owner, JSON.stringify(outcome.result ?? null), now],
        )
      : outcome.state === 'queued'
        ? await db.query(
            `UPDATE jobs SET state = 'queued', run_after = $5, error_code = $3, error_message = $4, lease_owner = NULL,
                    lease_until = NULL, updated_at = $6, attempts = attempts - $7
             WHERE id = $1 AND lease_owner = $2 AND state = 'running' RETURNING id`,
            [id, owner, outcome.code, outcome.message, outcome.runAfter, now, outcome.refundAttempt ? 1 : 0],
          )
        : await db.query(
            `UPDATE jobs SET state = $3, error_code = $4, error_message = $5, lease_owner = NULL, lease_until = NULL,
                    updated_at = $6, finished_at = $6
             WHERE id = $1 AND lease_owner = $2 AND state = 'running' RETURNING id`,
            [id, owner, outcome.state, outcome.code, outcome.message, now],
          );
  return rows.length > 0;
}

/**
 * Cancels a job: a queued one at once; a running one is asked to stop (its runner sees the flag at
 * the next lease renewal and aborts it). Answers the job's state after the call.
 */
export async function requestCancel(db: Queryable, id: string, now: Date): Promise<JobRow | undefined> {
  await db.query(
    `UPDATE jobs SET state = 'cancelled', finished_at = $2, updated_at = $2, error_code = 'CANCELLED',
            error_message = 'Cancelled before it started'
     WHERE id = $1 AND state = 'queued'`,
    [id, now],
  );
  await db.query(`UPDATE jobs SET cancel_requested = true, updated_at = $2 WHERE id = $1 AND state = 'running'`, [
    id,
    now,
  ]);
  return getJob(db, id);
}

/**
 * Jobs whose runner vanished (its lease ran out: the process was killed or hung): queued again
 * when attempts remain, failed otherwise (cancelled when that was asked). `everyRunning` recovers
 * every running job whatever its lease: on PGlite at start, since one process owns the data and
 * any job still "running" belonged to a process that is gone.
 */
export async function recoverAbandoned(db: Queryable, now: Date, everyRunning = false): Promise<JobRow[]> {
  return db.query<JobRow>(
    `UPDATE jobs SET
       state = CASE WHEN cancel_requested THEN 'cancelled' WHEN attempts < max_attempts THEN 'queued' ELSE 'failed' END,
       finished_at = CASE WHEN cancel_requested OR attempts >= max_attempts THEN $1::timestamptz ELSE NULL END,
       error_code = 'INTERRUPTED',
       error_message = 'The server running this job stopped before it finished',
       run_after = $1, lease_owner = NULL, lease_until = NULL, updated_at = $1
     WHERE state = 'running' AND ($2 OR lease_until < $1)
     RETURNING *`,
    [now, everyRunning],
  );
}
