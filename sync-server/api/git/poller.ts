import type { AppContext } from '../../context';
import { dueGitPolls, markGitPolled } from '../../store/git-sync';
import { loadSpaceRow } from '../../store/spaces';
import { queueAutoOperation } from './auto-queue';
import { autoImportUser, NO_AUTO_USER } from './auto-user';

/**
 * Polling of Git syncs with `pollMinutes`: every minute, in one process at a time (a database lock
 * every process tries and only one gets), an import is queued for each space whose poll is due.
 * An import of an unchanged branch changes nothing, so a poll costs one read of the branch's refs.
 * It lives here, not in jobs/ (which may not import the API), and server.ts starts and stops it.
 */

const MINUTE = 60_000;
/** Spaces looked at per run: the rest are due at the next run, longest waiting first. */
const BATCH = 200;

export interface GitPoller {
  /** Queues the due imports now; how many were queued, or null when another process held the lock (tests call it). */
  runOnce(): Promise<number | null>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

async function pollDue(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let queued = 0;
  for (const row of await dueGitPolls(ctx.db, now, BATCH)) {
    const space = await loadSpaceRow(ctx.db, row.space_id);
    if (!space) continue;
    const userId = await autoImportUser(ctx, row, space);
    const polled = (tx: Parameters<typeof markGitPolled>[0]) => markGitPolled(tx, row.space_id, now);
    if (!userId) {
      // Marked polled all the same: the warning comes once per interval, not once a minute.
      await polled(ctx.db);
      ctx.log.warn({ spaceId: row.space_id }, `git poll: ${NO_AUTO_USER}`);
      continue;
    }
    try {
      const outcome = await queueAutoOperation(ctx, {
        spaceId: row.space_id,
        organizationId: space.organization_id,
        direction: 'import',
        userId,
        alongside: polled,
      });
      if (outcome === 'queued') queued++;
    } catch (err) {
      // One space's failure does not hold up the others; it is due again at the next run.
      ctx.log.error({ err, spaceId: row.space_id }, 'git poll: the import could not be queued');
    }
  }
  return queued;
}

/** Starts the poller; its timer is unref'd, so it never keeps the process alive. */
export function startGitPoller(ctx: AppContext, intervalMs = MINUTE): GitPoller {
  let running: Promise<unknown> | undefined;
  const runOnce = async (): Promise<number | null> => {
    const outcome = await ctx.db.withLock('job:git-poll', () => pollDue(ctx), { wait: false });
    if (!outcome.acquired) return null;
    if (outcome.value > 0) ctx.log.info({ queued: outcome.value }, 'git poll: imports queued');
    return outcome.value;
  };
  const timer = setInterval(() => {
    // A run still going (a slow database) is not doubled.
    if (running) return;
    running = runOnce()
      .catch((err: unknown) => ctx.log.error({ err }, 'git poll failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
