import type { AppContext } from '../../context';
import { JobError } from '../../jobs/runner';
import { GitTransportError } from '../../git-sync/transport/transport-error';
import { findGitSync, saveGitOperation, type GitOperationRecord, type GitSyncRow } from '../../store/git-sync';
import type { GitJobPayload } from './job-payload';

/**
 * What the Git jobs share: the space's Git sync as the job starts (or why it cannot run), the
 * ordering rule (an operation older than the newest one applied is skipped, so a late delivery
 * never overwrites newer content), and recording the outcome where GitSyncState shows it.
 */

export type Direction = GitOperationRecord['direction'];

/** The Git sync the job works on; a job of a space whose Git sync was removed fails saying so. */
export async function startOperation(ctx: AppContext, payload: GitJobPayload, direction: Direction) {
  const row = await findGitSync(ctx.db, payload.spaceId);
  if (!row) throw new JobError('NOT_CONFIGURED', 'This space has no Git sync any more (it was removed)');
  const startedAt = ctx.clock.now().toISOString();
  const record = (outcome: Omit<GitOperationRecord, 'direction' | 'startedAt'>) =>
    saveGitOperation(ctx.db, payload.spaceId, { direction, startedAt, ...outcome });
  await record({ state: 'running' });
  return { row, record };
}

/** Whether a newer operation was applied already (the payload's timestamp is older than the last one). */
export function isStale(row: GitSyncRow, payload: GitJobPayload): boolean {
  return !!payload.timestamp && !!row.last_timestamp && new Date(payload.timestamp) < row.last_timestamp;
}

/** A failure as the job runner takes it: transport failures that may pass (network, timeout) are retried. */
export function asJobError(err: unknown): unknown {
  if (!(err instanceof GitTransportError)) return err;
  const retryable = err.code === 'network' || err.code === 'timeout';
  return new JobError(`GIT_${err.code.toUpperCase().replace(/-/g, '_')}`, err.message, retryable);
}

/** The message a failure leaves in GitSyncState.operation.error (never a stack, never credentials). */
export function failureMessage(err: unknown): string {
  if (err instanceof JobError || err instanceof GitTransportError) return err.message;
  return 'The Git operation failed unexpectedly; see the server log';
}
