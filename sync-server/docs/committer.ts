import type { DocStore } from './persistence';
import type { BatchHandlers, PendingWrite, PreparedBatch, WriteTarget } from './hub-types';

/**
 * Group commit: every write pushed during one event-loop turn — from any
 * connection, for any document — is stored by ONE transaction, started from
 * setImmediate (after the I/O phase that delivered the frames). While a
 * transaction runs, new writes gather and form the next batch, so batches
 * grow with load instead of the database seeing one transaction per update.
 * Batches run one at a time, which keeps each connection's updates in order.
 * The hub turns a batch into few rows (one per document for its clients'
 * updates, see LiveDoc.stage), so a batch costs the database about the same
 * whether it holds one update or thousands.
 */
export class GroupCommitter<D extends WriteTarget = WriteTarget> {
  private queue: PendingWrite<D>[] = [];
  private running = false;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: DocStore,
    private readonly handlers: BatchHandlers<D>,
  ) {}

  /** Queues a write; it is committed with the rest of this turn's writes. */
  push(write: PendingWrite<D>): void {
    write.live.activity.enqueued();
    this.queue.push(write);
    this.schedule();
  }

  /** Resolves once nothing is queued or in flight. */
  drain(): Promise<void> {
    if (!this.running && !this.scheduled && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const taken = this.queue;
        this.queue = [];
        try {
          await this.commit(taken);
        } finally {
          for (const w of taken) w.live.activity.dequeued();
        }
      }
    } finally {
      this.running = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async commit(taken: PendingWrite<D>[]): Promise<void> {
    let prepared: PreparedBatch<D>;
    try {
      prepared = await this.handlers.prepare(taken);
    } catch (err) {
      this.handlers.failed(taken, err);
      return;
    }
    try {
      await this.store.append(prepared.rows);
    } catch (err) {
      this.handlers.failed(prepared.writes, err);
      return;
    }
    try {
      this.handlers.committed(prepared.writes);
    } catch (err) {
      this.handlers.crashed(err);
    }
  }
}
