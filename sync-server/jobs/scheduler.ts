import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { purgeDeletedSpaces } from './purge-deleted-spaces';

export interface Jobs {
  /** Runs every periodic job once now (tests call this after moving the clock). */
  runAll(): Promise<void>;
  stop(): void;
}

const HOUR = 60 * 60 * 1000;

/** Starts the periodic jobs. Timers are unref'd so they never keep the process alive. */
export function startJobs(ctx: AppContext, log: FastifyBaseLogger, intervalMs = HOUR): Jobs {
  const runAll = async () => {
    const purged = await purgeDeletedSpaces(ctx);
    if (purged > 0) log.info({ purged }, 'permanently removed deleted spaces');
  };
  const timer = setInterval(() => {
    runAll().catch((err) => log.error({ err }, 'periodic job failed'));
  }, intervalMs);
  timer.unref();
  return { runAll, stop: () => clearInterval(timer) };
}
