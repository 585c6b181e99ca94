/**
 * Fan-out between server processes: what the document hub and the read cache
 * need from it. The Redis implementation is in redis-fanout.ts; one process
 * alone (PGlite, or PostgreSQL without FOLIO_REDIS_URL) has none.
 */

/** What a process does with messages from the others. */
export interface FanoutHandlers {
  /** A committed update of `doc` made by another process, published at `sentAt` (its Date.now()). */
  update(doc: string, update: Uint8Array, sentAt: number): void;
  /** An awareness update of `doc` from another process's connections. */
  awareness(doc: string, update: Uint8Array): void;
  /** Another process changed rows: cached reads may be stale. */
  invalidate(): void;
  /** Messages may have been lost (a connection to Redis was re-established): catch up from the database. */
  resync(): void;
}

export interface Fanout {
  /** Connects and starts delivering messages to `handlers`. */
  start(handlers: FanoutHandlers): Promise<void>;
  /**
   * Starts receiving messages of `doc`; resolves once Redis confirmed, so
   * that a database read started afterwards misses nothing published since.
   */
  subscribe(doc: string): Promise<void>;
  /** Stops receiving messages of `doc` (it was unloaded). */
  unsubscribe(doc: string): void;
  publishUpdate(doc: string, update: Uint8Array): void;
  publishAwareness(doc: string, update: Uint8Array): void;
  publishInvalidate(): void;
  /** Whether both Redis connections are up (readiness, metrics). */
  readonly connected: boolean;
  close(): Promise<void>;
}
