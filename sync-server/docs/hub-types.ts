import type * as Y from 'yjs';
import type { LiveDoc, UpdateOrigin } from './live-doc';

/** Types and settings of the DocHub (hub.ts re-exports them). */

/** Tunables of the hub (server.ts passes overrides; tests shorten them). */
export interface HubOptions {
  /** How long a document nobody holds stays in memory, in ms. */
  idleUnloadMs: number;
  /** Compact a document once its log tail has this many updates… */
  compactAfterUpdates: number;
  /** …or this many bytes. */
  compactAfterBytes: number;
}

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

/**
 * Called for every committed update, after its batch was applied and fanned
 * out: `update` is the stored update (it may repeat content the document
 * already had), `origin` who made it.
 */
export type UpdateListener = (name: string, update: Uint8Array, origin: UpdateOrigin) => void;

/** A hold on an open document; it stays in memory until every lease is released. */
export interface DocLease {
  readonly doc: Y.Doc;
  readonly live: LiveDoc;
  release(): void;
}

/** A server-side change could not be committed; it was not applied. */
export class DocumentWriteError extends Error {
  constructor(cause: unknown) {
    super('The document change could not be stored', { cause });
    this.name = 'DocumentWriteError';
  }
}

/** Logs to the console until the server hands the hub its pino logger. */
export const consoleLogger: HubLogger = {
  error: (obj, msg) => console.error(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
};
