import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import { CloseCode, syncRoom, type SyncAddress } from '../../../shared/sync-contract';
import type { ApiClient } from '../api/client';

/**
 * One open document: a Y.Doc kept in IndexedDB (y-indexeddb, so it opens and
 * edits without the server) and synced with the server by the stock
 * y-websocket provider (so it merges whenever the server is reachable).
 */

/** Sync state of one document, as the status indicator shows it. */
export type DocSyncState =
  /** no connection to the server (editing continues locally) */
  | 'offline'
  /** connected, exchanging the first sync */
  | 'syncing'
  /** connected and up to date */
  | 'online'
  /** the server refused this document for good (read-only, merged, deleted, access lost) */
  | 'refused';

/** The IndexedDB database name of a document: per server, so two servers' spaces never mix. */
export function storageNameOf(serverUrl: string, address: SyncAddress): string {
  return `folio:${serverUrl}:${syncRoom(address)}`;
}

/** A Y.Doc with its local store and its server connection. */
export class DocSession {
  /** Resolves once the local copy is loaded from IndexedDB (the document can be shown then, online or not). */
  readonly loaded: Promise<void>;
  /** Why the server refused the document, when state is 'refused'. */
  refusal?: string;
  private parts: { doc: Y.Doc; persistence: IndexeddbPersistence; provider: WebsocketProvider };
  private listeners = new Set<(state: DocSyncState) => void>();
  private replacedListeners = new Set<(doc: Y.Doc) => void>();
  private resyncedFromServer = false;
  private destroyed = false;

  constructor(
    private readonly api: ApiClient,
    readonly address: SyncAddress,
  ) {
    this.parts = this.connect();
    this.loaded = this.parts.persistence.whenSynced.then(() => undefined);
  }

  /** The document. A discussion's document is replaced once if its local copy had to be dropped (see `onReplaced`). */
  get doc(): Y.Doc {
    return this.parts.doc;
  }

  /** The document's local store. */
  get persistence(): IndexeddbPersistence {
    return this.parts.persistence;
  }

  /** The document's server connection (its awareness carries presence). */
  get provider(): WebsocketProvider {
    return this.parts.provider;
  }

  /** The current sync state. */
  get state(): DocSyncState {
    if (this.refusal !== undefined) return 'refused';
    if (!this.provider.wsconnected) return 'offline';
    return this.provider.synced ? 'online' : 'syncing';
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onState(listener: (state: DocSyncState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with the new document when `doc` is replaced; returns the unsubscribe function. */
  onReplaced(listener: (doc: Y.Doc) => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  /** Closes the connection and the local store (the local copy stays in IndexedDB). */
  destroy(): void {
    this.destroyed = true;
    this.listeners.clear();
    this.replacedListeners.clear();
    this.provider.destroy();
    void this.persistence.destroy();
    this.doc.destroy();
  }

  private connect(): { doc: Y.Doc; persistence: IndexeddbPersistence; provider: WebsocketProvider } {
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(storageNameOf(this.api.serverUrl, this.address), doc);
    const provider = new WebsocketProvider(this.api.syncUrl, syncRoom(this.address), doc, {
      params: this.api.syncParams,
      maxBackoffTime: 2500,
    });
    provider.on('status', () => this.emit());
    provider.on('sync', () => this.emit());
    provider.on('closed', (event) => this.onClosed(event));
    return { doc, persistence, provider };
  }

  private onClosed(event: { code: number; reason: string }): void {
    // Only the server writes discussions, so a refused write means the local copy holds updates the
    // server lacks (its data was reset or restored from a backup): every reconnect would resend them
    // and be refused again. The server is the truth here, so drop the copy and sync afresh — once;
    // a second refusal is a real one.
    if (event.code === CloseCode.readOnly && this.address.kind === 'discussion' && !this.resyncedFromServer) {
      this.resyncedFromServer = true;
      void this.resyncFromServer();
      return;
    }
    this.refusal = event.reason || `closed by the server (${event.code})`;
    this.emit();
  }

  /** Deletes the local copy (y-indexeddb clearData) and starts over with an empty document synced from the server. */
  private async resyncFromServer(): Promise<void> {
    const stale = this.parts;
    stale.provider.destroy();
    // Y.Doc updates cannot be taken back, so the stray data goes with a new document, not by editing this one.
    await stale.persistence.clearData();
    stale.doc.destroy();
    if (this.destroyed) return;
    this.parts = this.connect();
    for (const listener of this.replacedListeners) listener(this.parts.doc);
    this.emit();
  }

  private emit(): void {
    const state = this.state;
    for (const listener of this.listeners) listener(state);
  }
}
