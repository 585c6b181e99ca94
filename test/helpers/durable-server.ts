import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitBookAPI } from '@gitbook/api';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer, type StartOptions } from '../../sync-server/server';
import type { Db } from '../../sync-server/store/db';
import { freshPostgresDatabase } from './postgres';
import { gitbookClient, TEST_ADMIN_TOKEN, testBackend, testServerEnv, type TestServer } from './server';

/**
 * A server that can be stopped and started again on the same storage (a
 * PGlite data folder on disk, or a PostgreSQL database), for restarts,
 * crashes and offline periods.
 */

/** Storage that outlives a server: a PGlite data dir on disk, or a PostgreSQL database. */
export interface DurableStorage {
  dataDir: string;
  /** The server settings that point at this storage (FOLIO_*; a test may add its own). */
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
      ...testServerEnv(dataDir),
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
  const clientFor = (token: string) => gitbookClient(server.url, token);
  return { server, client: clientFor(TEST_ADMIN_TOKEN), clientFor };
}

/**
 * The parts of a TestServer the user and member helpers use (newUser, addMember: the database and
 * the server's URL), for a server not started by startTestServer: one started with startOn, or a
 * server process reached over HTTP with its database opened by the test.
 */
export function asTestServer(server: { url: string; ctx: { db: Db } }): TestServer {
  const clientFor = (token: string) => gitbookClient(server.url, token);
  return {
    server,
    url: server.url,
    adminToken: TEST_ADMIN_TOKEN,
    client: clientFor(TEST_ADMIN_TOKEN),
    clientFor,
  } as unknown as TestServer;
}
