import { decodeEdits, type TextEdit } from '../../shared/doc/word-edits';
import { ParsePool } from './pool';

/**
 * Word diffs of large page bodies in a worker thread (the parse pool's
 * worker, task kind `diff`), so that a batch of big pages never holds the
 * event loop. One pool per process; like the markdown pool, its threads start
 * on first use and exit when idle, so a server that diffs nothing holds none.
 */

/** Backstop once a worker runs a task (ms): the task's own budget ends it far sooner; past this the worker is terminated. */
const TASK_TIMEOUT_MS = 15_000;
/**
 * How long past its budget an answer is still waited for (ms): a thread's
 * start-up (~0.7 s here, more on a busy machine), the queue, the transfer.
 */
const GRACE_MS = 5_000;

let pool: ParsePool | undefined;

/**
 * The word edits (shared/doc/word-edits.ts) from `current` to `next`,
 * computed in a worker within `budgetMs` of its start, and the time that took.
 * Resolves with undefined when no worker answered within the budget plus a
 * grace period, or the worker failed (none could start, out of memory): the
 * caller then replaces the text as one span. Never rejects.
 */
export async function wordEditsInWorker(
  current: string,
  next: string,
  budgetMs: number,
): Promise<{ edits: TextEdit[]; ms: number } | undefined> {
  pool ??= new ParsePool({ timeoutMs: TASK_TIMEOUT_MS });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs + GRACE_MS);
  });
  try {
    const outcome = await Promise.race([pool.runDiff({ kind: 'diff', current, next, budgetMs }), late]);
    return outcome?.ok ? { edits: decodeEdits(outcome.value.edits, next), ms: outcome.value.ms } : undefined;
  } finally {
    clearTimeout(timer);
  }
}
