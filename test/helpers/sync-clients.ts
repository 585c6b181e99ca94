import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { SYNC_BASE_PATH, syncPath, syncRoom, type SyncAddress } from '../../shared/sync-contract';
import { TEST_ADMIN_TOKEN } from './server';
import { waitFor } from './wait';

/**
 * Sync clients as users run them: the stock y-websocket WebsocketProvider,
 * unmodified, on a document of the server at an http(s) URL.
 */

// Every WebsocketProvider adds a process 'exit' listener (to announce its departure); a suite runs dozens.
process.setMaxListeners(500);

/** A document to sync: its address, or a space id for that space's content document. */
export type SyncDocument = SyncAddress | string;

const addressOf = (document: SyncDocument): SyncAddress =>
  typeof document === 'string' ? { spaceId: document, kind: 'content' } : document;

/** ws:// base URL of the sync endpoint (the WebsocketProvider appends `/<room>`). */
export function syncBase(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}${SYNC_BASE_PATH}`;
}

/** ws:// URL of a document's sync endpoint, with `?token=` unless `token` is null. */
export function syncUrl(httpUrl: string, document: SyncDocument, token: string | null = TEST_ADMIN_TOKEN): string {
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  return `${httpUrl.replace(/^http/, 'ws')}${syncPath(addressOf(document))}${query}`;
}

/** A stock y-websocket client of one document. */
export interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** The document's `body` text (what most sync tests type into). */
  text: Y.Text;
  /** Close events the provider saw (code, reason). */
  closes: { code: number; reason: string }[];
  destroy(): void;
}

/**
 * A stock y-websocket WebsocketProvider (unmodified) on `document`. BroadcastChannel is off: Node
 * has one, and clients in one test process would otherwise sync with each other behind the
 * server's back.
 */
export function connect(
  httpUrl: string,
  document: SyncDocument,
  token: string = TEST_ADMIN_TOKEN,
  options: { connect?: boolean } = {},
): Client {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(syncBase(httpUrl), syncRoom(addressOf(document)), doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { token },
    disableBc: true,
    connect: options.connect ?? true,
    maxBackoffTime: 300,
  });
  const closes: { code: number; reason: string }[] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push({ code: event.code, reason: event.reason });
  });
  return {
    doc,
    provider,
    text: doc.getText('body'),
    closes,
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Resolves once the provider has completed its first sync with the server. */
export function synced(client: Client, timeoutMs = 10_000): Promise<unknown> {
  return waitFor(() => client.provider.synced, timeoutMs, 'sync');
}

/** The clients a suite opens, destroyed together (in its afterAll or afterEach). */
export class SyncClients {
  private readonly open: Client[] = [];

  /** Opens a client (see `connect`) that `destroyAll` will close. */
  connect(httpUrl: string, document: SyncDocument, token?: string, options?: { connect?: boolean }): Client {
    const client = connect(httpUrl, document, token, options);
    this.open.push(client);
    return client;
  }

  /** Destroys every client opened so far (destroying one twice is harmless). */
  destroyAll(): void {
    for (const client of this.open.splice(0)) client.destroy();
  }
}
