import type { FastifyBaseLogger } from 'fastify';
import { purgeDeletedSpaces, type JobDeps } from './purge-deleted-spaces';
import { purgeExpiredSignIns } from './purge-expired-sign-ins';
import { collectUnusedBlobs, type CollectDeps } from './collect-unused-blobs';

/** What one run of the periodic jobs did; null = another process held the job's lock and ran it. */
export interface JobReport {
  purgedSpaces: number | null;
  /** Expired sessions, device tokens and pending sign-in steps deleted. */
  purgedSignIns: number | null;
  /** Stored files no revision, live document, upload or setting names any more, deleted from the blob store. */
  collectedBlobs: number | null;
}

export interface Jobs {
  /** Runs every periodic job once now (tests call this after moving the clock). */
  runAll(): Promise<JobReport>;
  stop(): void;
}

const HOUR = 60 * 60 * 1000;

/** Starts the periodic jobs. Timers are unref'd so they never keep the process alive. */
export function startJobs(ctx: JobDeps & CollectDeps, log: FastifyBaseLogger, intervalMs = HOUR): Jobs {
  const runAll = async (): Promise<JobReport> => {
    // Every process runs the timer; the lock (shared through the database) lets one of them do the work.
    const outcome = await ctx.db.withLock('job:purge-deleted-spaces', () => purgeDeletedSpaces(ctx), { wait: false });
    if (!outcome.acquired) log.debug('purge of deleted spaces is running in another process');
    else if (outcome.value > 0) log.info({ purged: outcome.value }, 'permanently removed deleted spaces');
    const signIns = await ctx.db.withLock('job:purge-expired-sign-ins', () => purgeExpiredSignIns(ctx), {
      wait: false,
    });
    if (signIns.acquired && signIns.value > 0) log.debug({ purged: signIns.value }, 'deleted expired sign-ins');
    // After the purge: the files of the spaces it removed are unused now.
    const blobs = await ctx.db.withLock('job:collect-unused-blobs', () => collectUnusedBlobs(ctx), { wait: false });
    if (blobs.acquired && blobs.value > 0) log.info({ collected: blobs.value }, 'deleted unused stored files');
    return {
      purgedSpaces: outcome.acquired ? outcome.value : null,
      purgedSignIns: signIns.acquired ? signIns.value : null,
      collectedBlobs: blobs.acquired ? blobs.value : null,
    };
  };
  const timer = setInterval(() => {
    runAll().catch((err) => log.error({ err }, 'periodic job failed'));
  }, intervalMs);
  timer.unref();
  return { runAll, stop: () => clearInterval(timer) };
}
