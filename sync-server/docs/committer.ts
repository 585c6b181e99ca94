import type { DocStore } from './persistence';
import type { DocPeer, LiveDoc, UpdateOrigin } from './live-doc';

/** One update waiting to be made durable. */
export interface PendingWrite {
  live: LiveDoc;
  data: Uint8Array;
  origin: UpdateOrigin;
  /** The connection it came from; undefined for server-side changes. */
  peer: DocPeer | undefined;
  /**
   * True for a server-side change, already applied to `live.doc` (held back
   * from readers until committed); false for a client update, applied only
   * after its commit.
   */
  applied: boolean;
  /** Settles the caller waiting for this write (hub.change). */
  settle?: { resolve(): void; reject(err: unknown): void };
  /** performance.now() when a client update arrived (fan-out lag metric). */
  receivedAt?: number;
}

/** What the hub does around each batch. */
export interface BatchHandlers {
  /**
   * Drops writes that may no longer happen (authorization re-check, dropped
   * documents) and returns the rest. When it throws, it must not have acted on
   * any write yet: the whole batch then goes to `failed`.
   */
  prepare(batch: PendingWrite[]): Promise<PendingWrite[]>;
  /** After the commit: apply, fan out, notify. */
  committed(batch: PendingWrite[]): void;
  /** The commit failed: nothing of the batch was stored. */
  failed(batch: PendingWrite[], err: unknown): void;
  /** A bug in `committed` (the batch IS durable; only logging is left to do). */
  crashed(err: unknown): void;
}

/**
 * Group commit: every write pushed during one event-loop turn — from any
 * connection, for any document — is stored by ONE transaction, started from
 * setImmediate (after the I/O phase that delivered the frames). While a
 * transaction runs, new writes gather and form the next batch, so batches
 * grow with load instead of the database seeing one transaction per update.
 * Batches run one at a time, which keeps each connection's updates in order.
 */
export class GroupCommitter {
  private queue: PendingWrite[] = [];
  private running = false;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: DocStore,
    private readonly handlers: BatchHandlers,
  ) {}

  /** Queues a write; it is committed with the rest of this turn's writes. */
  push(write: PendingWrite): void {
    write.live.queued++;
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
          for (const w of taken) w.live.queued--;
        }
      }
    } finally {
      this.running = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async commit(taken: PendingWrite[]): Promise<void> {
    let batch: PendingWrite[];
    try {
      batch = await this.handlers.prepare(taken);
    } catch (err) {
      this.handlers.failed(taken, err);
      return;
    }
    try {
      await this.store.append(batch.map((w) => ({ doc: w.live.name, data: w.data })));
    } catch (err) {
      this.handlers.failed(batch, err);
      return;
    }
    try {
      this.handlers.committed(batch);
    } catch (err) {
      this.handlers.crashed(err);
    }
  }
}
