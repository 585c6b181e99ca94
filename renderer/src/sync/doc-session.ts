import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import type { ApiClient } from '../api/client';

/**
 * One open document: a Y.Doc kept in IndexedDB (y-indexeddb, so it opens and
 * edits without the server) and synced with the server by the stock
 * y-websocket provider (so it merges whenever the server is reachable).
 */

/** Which document of a space (or of one of its change requests). */
export interface DocAddress {
  spaceId: string;
  changeRequestId?: string;
  kind: 'content' | 'discussion';
}

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

/** The y-websocket room of a document: the path after `/v1/sync/spaces/`. */
export function roomOf(address: DocAddress): string {
  const base = address.changeRequestId ? `${address.spaceId}/change-requests/${address.changeRequestId}` : address.spaceId;
  return address.kind === 'discussion' ? `${base}/discussion` : base;
}

/** The IndexedDB database name of a document: per server, so two servers' spaces never mix. */
export function storageNameOf(serverUrl: string, address: DocAddress): string {
  return `folio:${serverUrl}:${roomOf(address)}`;
}

/** A Y.Doc with its local store and its server connection. */
export class DocSession {
  readonly doc = new Y.Doc();
  readonly persistence: IndexeddbPersistence;
  readonly provider: WebsocketProvider;
  /** Resolves once the local copy is loaded from IndexedDB (the document can be shown then, online or not). */
  readonly loaded: Promise<void>;
  /** Why the server refused the document, when state is 'refused'. */
  refusal?: string;
  private listeners = new Set<(state: DocSyncState) => void>();

  constructor(
    api: ApiClient,
    readonly address: DocAddress,
  ) {
    this.persistence = new IndexeddbPersistence(storageNameOf(api.serverUrl, address), this.doc);
    this.loaded = this.persistence.whenSynced.then(() => undefined);
    this.provider = new WebsocketProvider(api.syncUrl, roomOf(address), this.doc, { params: api.syncParams, maxBackoffTime: 2500 });
    this.provider.on('status', () => this.emit());
    this.provider.on('sync', () => this.emit());
    this.provider.on('closed', (event) => {
      this.refusal = event.reason || `closed by the server (${event.code})`;
      this.emit();
    });
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

  /** Closes the connection and the local store (the local copy stays in IndexedDB). */
  destroy(): void {
    this.listeners.clear();
    this.provider.destroy();
    void this.persistence.destroy();
    this.doc.destroy();
  }

  private emit(): void {
    const state = this.state;
    for (const listener of this.listeners) listener(state);
  }
}
