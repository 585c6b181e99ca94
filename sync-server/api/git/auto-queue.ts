import type { AppContext } from '../../context';
import { importWaiting, saveGitOperation } from '../../store/git-sync';
import type { Queryable } from '../../store/db';
import { GIT_EXPORT_JOB, GIT_IMPORT_JOB, gitSubject, type GitJobPayload } from './job-payload';

/**
 * Queues an import or export that nobody asked for by hand: after a merge, on a push announced on
 * the webhook, or when a poll is due. Timestamped now, so the job ordering of operation-log.ts
 * holds (an older operation delivered late never overwrites it). An import is not queued again
 * while one is still waiting to start: that one reads the branch as it is when it runs.
 */

export interface AutoOperation {
  spaceId: string;
  organizationId: string;
  direction: 'import' | 'export';
  /** Who it runs as (the export's commit author; the owner of a conflict's change request). */
  userId: string;
  commitMessage?: string;
  /** Also written in the same transaction (the poller records the poll there). */
  alongside?: (tx: Queryable) => Promise<void>;
}

/** 'queued', or 'waiting' when an import already waiting to start covers it. */
export async function queueAutoOperation(ctx: AppContext, op: AutoOperation): Promise<'queued' | 'waiting'> {
  const now = ctx.clock.now();
  const kind = op.direction === 'import' ? GIT_IMPORT_JOB : GIT_EXPORT_JOB;
  const subject = gitSubject(op.spaceId);
  const payload: GitJobPayload = {
    spaceId: op.spaceId,
    organizationId: op.organizationId,
    userId: op.userId,
    timestamp: now.toISOString(),
    ...(op.commitMessage !== undefined ? { commitMessage: op.commitMessage } : {}),
  };
  const outcome = await ctx.db.transaction(async (tx) => {
    await op.alongside?.(tx);
    if (op.direction === 'import' && (await importWaiting(tx, subject, GIT_IMPORT_JOB))) return 'waiting' as const;
    await ctx.jobRunner.enqueue({ kind, payload, organizationId: op.organizationId, subject }, tx);
    // As for an operation asked for by hand (service.ts): git/info shows it from now on.
    await saveGitOperation(tx, op.spaceId, {
      state: 'running',
      direction: op.direction,
      startedAt: now.toISOString(),
    });
    return 'queued' as const;
  });
  // Queued inside a transaction, the job was not visible to the runner yet: look for it now.
  if (outcome === 'queued') ctx.jobRunner.wake();
  return outcome;
}
