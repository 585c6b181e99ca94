import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { GitBookAPI } from '@gitbook/api';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer, type StartOptions } from '../../sync-server/server';
import { TEST_ADMIN_TOKEN, testBackend, type TestServer } from '../helpers/server';
import { freshPostgresDatabase } from '../helpers/postgres';

/**
 * Helpers of the sync suites: stock y-websocket clients, raw sockets, waiting,
 * and a server that can be stopped and started again on the same storage.
 */

// Every WebsocketProvider adds a process 'exit' listener (to announce its departure); a suite runs dozens.
process.setMaxListeners(500);

/** ws:// base URL of the sync endpoint (the WebsocketProvider appends `/<spaceId>`). */
export function syncBase(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/v1/sync/spaces`;
}

export interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  text: Y.Text;
  /** Close events the provider saw (code, reason). */
  closes: { code: number; reason: string }[];
  destroy(): void;
}

/**
 * A stock y-websocket WebsocketProvider (unmodified) on `room` ("<spaceId>" or
 * "<spaceId>/discussion"). BroadcastChannel is off: Node has one, and clients
 * in one test process would otherwise sync with each other behind the server's back.
 */
export function connect(httpUrl: string, room: string, token: string, options: { connect?: boolean } = {}): Client {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(syncBase(httpUrl), room, doc, {
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

/** Polls `check` until it is truthy (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolves once the provider has completed its first sync with the server. */
export function synced(client: Client, timeoutMs = 10_000): Promise<unknown> {
  return waitFor(() => client.provider.synced, timeoutMs, 'sync');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw ws socket (to send hand-made frames); resolves when open. */
export function rawSocket(
  url: string,
): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }>; frames: Uint8Array[] }> {
  const ws = new WebSocket(url);
  const frames: Uint8Array[] = [];
  ws.on('message', (data) => frames.push(new Uint8Array(data as Buffer)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed, frames }));
    ws.once('error', reject);
  });
}

/** The HTTP status an upgrade attempt is answered with (101 when it succeeds). */
export function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** Storage that outlives a server: a PGlite data dir on disk, or a PostgreSQL database. */
export interface DurableStorage {
  dataDir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Creates storage for the current backend (vitest project) that several server runs can share. */
export async function durableStorage(): Promise<DurableStorage> {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-sync-'));
  const pgDb = testBackend() === 'postgres' ? await freshPostgresDatabase('folio_sync') : undefined;
  return {
    dataDir,
    env: {
      FOLIO_PORT: '0',
      FOLIO_HOST: '127.0.0.1',
      FOLIO_DATA_DIR: dataDir,
      FOLIO_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      FOLIO_LOG_LEVEL: 'silent',
      ...(pgDb ? { FOLIO_DATABASE_URL: pgDb.url } : {}),
    },
    async cleanup() {
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts an in-process server on durable storage (restartable: start again with the same storage). */
export async function startOn(
  storage: DurableStorage,
  options: StartOptions = {},
): Promise<{ server: RunningServer; client: GitBookAPI; clientFor(token: string): GitBookAPI }> {
  const server = await startServer(loadConfig([], storage.env), { inMemory: false, ...options });
  const clientFor = (token: string) => new GitBookAPI({ endpoint: server.url, authToken: token });
  return { server, client: clientFor(TEST_ADMIN_TOKEN), clientFor };
}

/** The parts of a TestServer the member helpers use (newUser, addMember), for a server started with startOn. */
export function asTestServer(server: RunningServer): TestServer {
  const clientFor = (token: string) => new GitBookAPI({ endpoint: server.url, authToken: token });
  return {
    server,
    url: server.url,
    adminToken: TEST_ADMIN_TOKEN,
    client: clientFor(TEST_ADMIN_TOKEN),
    clientFor,
  } as unknown as TestServer;
}
