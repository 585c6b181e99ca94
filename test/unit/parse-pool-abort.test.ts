import { expect, it } from 'vitest';
import { ParsePool } from '../../sync-server/markdown/pool';

/**
 * Every caller of the parse pool gets an answer. With a 1 ms budget nearly
 * every task is aborted, and an abort can reach a worker that tinypool has
 * already handed the next task: that task is then lost, never settled. A
 * merge waited on such an analysis forever (and with it the server's
 * shutdown). The pool gives up on a task that neither ran nor settled within
 * its budget plus a wait cap, as it does on one over its budget.
 */
it('answers every task of a storm with a 1 ms budget, none left waiting', async () => {
  const pool = new ParsePool({ timeoutMs: 1, maxThreads: 1, queueWaitCapMs: 3_000 });
  try {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pool.run({ kind: 'analysis', markdown: i % 2 ? '' : `Hello [x](page-${i}.md)` }),
      ),
    );
    expect(outcomes).toHaveLength(40);
    for (const o of outcomes) expect(o.ok || o.reason === 'timeout' || o.reason === 'error').toBe(true);
  } finally {
    await pool.close();
  }
}, 60_000);
