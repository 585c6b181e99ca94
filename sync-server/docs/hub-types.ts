import type { DocActivity } from './doc-activity';

/**
 * Types and settings shared by the hub's parts (hub.ts re-exports the public
 * ones). This file imports no other part of the hub, so every part can import
 * it without forming a cycle.
 */

/** Tunables of the hub (server.ts passes overrides; tests shorten them). */
export interface HubOptions {
  /** How long a document nobody holds stays in memory, in ms. */
  idleUnloadMs: number;
  /** Compact a document once its log tail has this many updates… */
  compactAfterUpdates: number;
  /** …or this many bytes. */
  compactAfterBytes: number;
}

/** The hub's tunables when the server passes no override. */
export const DEFAULT_HUB_OPTIONS: HubOptions = {
  idleUnloadMs: 30_000,
  compactAfterUpdates: 500,
  compactAfterBytes: 1024 * 1024,
};

/** The pino-compatible subset the hub logs through. */
export interface HubLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Logs to the console until the server hands the hub its pino logger. */
export const consoleLogger: HubLogger = {
  error: (obj, msg) => console.error(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
};

/** A connection attached to a document, as the hub sees it. */
export interface DocPeer {
  readonly id: string;
  /** Sends one frame (dropped when the socket is no longer open). */
  send(frame: Uint8Array): void;
  close(code: number, reason: string): void;
  /** Re-checks that this peer may still write; when not, it closes itself and resolves false. */
  authorizeWrite(): Promise<boolean>;
}

/** Who made an update, passed to `hub.onUpdate` listeners. */
export type UpdateOrigin =
  | { kind: 'socket'; userId: string; connectionId: string }
  | { kind: 'server'; userId?: string; reason?: string }
  /** Committed by another server process (fan-out), or read back from the database by a catch-up. */
  | { kind: 'remote' };

/**
 * Called for every committed update, after its batch was applied and fanned
 * out: `update` is the stored update (it may repeat content the document
 * already had), `origin` who made it.
 */
export type UpdateListener = (name: string, update: Uint8Array, origin: UpdateOrigin) => void;

/**
 * Transaction origin of updates that are already durable (replayed from the
 * store, or applied after their commit). Every other update event on a live
 * document is a server-side change that still has to be persisted.
 */
export const COMMITTED = Symbol('folio.committed');

/** A server-side change could not be committed; it was not applied. */
export class DocumentWriteError extends Error {
  constructor(cause: unknown) {
    super('The document change could not be stored', { cause });
    this.name = 'DocumentWriteError';
  }
}

/**
 * The document a write belongs to, as far as the committer needs it (the hub
 * uses LiveDoc). An interface rather than LiveDoc itself, so that the
 * committer does not depend on the live document.
 */
export interface WriteTarget {
  readonly name: string;
  readonly activity: DocActivity;
}

/** One update waiting to be made durable. */
export interface PendingWrite<D extends WriteTarget = WriteTarget> {
  live: D;
  data: Uint8Array;
  origin: UpdateOrigin;
  /** The connection it came from; undefined for server-side changes. */
  peer: DocPeer | undefined;
  /**
   * True for a server-side change, already applied to `live.doc` (held back
   * from readers until committed); false for a client update, applied when its
   * batch is staged, right before the commit (and held back the same way).
   */
  applied: boolean;
  /** Settles the caller waiting for this write (hub.change). */
  settle?: { resolve(): void; reject(err: unknown): void };
  /** performance.now() when a client update arrived (fan-out lag metric). */
  receivedAt?: number;
}

/** One row of the update log to append. */
export interface LogRow {
  doc: string;
  data: Uint8Array;
}

/** A batch ready for its commit: the writes that may happen, and the rows that store them. */
export interface PreparedBatch<D extends WriteTarget = WriteTarget> {
  writes: PendingWrite<D>[];
  /** Fewer than the writes as a rule: one row per document for all its clients' updates. */
  rows: LogRow[];
}

/** What the hub does around each batch of the group committer. */
export interface BatchHandlers<D extends WriteTarget = WriteTarget> {
  /**
   * Drops writes that may no longer happen (authorization re-check, dropped
   * documents), stages the rest on their documents (applied, but held back
   * from everyone until `committed`) and returns them with the rows to store.
   * When it throws, the whole batch goes to `failed`, which must undo what
   * was staged.
   */
  prepare(batch: PendingWrite<D>[]): Promise<PreparedBatch<D>>;
  /** After the commit: fan out, notify. */
  committed(batch: PendingWrite<D>[]): void;
  /** The commit failed: nothing of the batch was stored (what was staged must not be seen). */
  failed(batch: PendingWrite<D>[], err: unknown): void;
  /** A bug in `committed` (the batch IS durable; only logging is left to do). */
  crashed(err: unknown): void;
}
