import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresDatabase } from './postgres';
import { GitBookAPI } from '@gitbook/api';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer, type StartOptions } from '../../sync-server/server';
import type { Clock } from '../../sync-server/clock';

/** The instance admin's API token on every test server (FOLIO_ADMIN_TOKEN). */
export const TEST_ADMIN_TOKEN = 'folio-test-admin-token-0123456789';

/** Which storage the API suites run on (set per vitest project). */
export function testBackend(): 'pglite' | 'postgres' {
  return process.env.FOLIO_TEST_BACKEND === 'postgres' ? 'postgres' : 'pglite';
}

/** A settable clock, for the 7-day space retention and other time rules. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** The settings of every test server: 127.0.0.1 on a free port, the test admin token, no logs, data in `dataDir`. */
export function testServerEnv(dataDir: string): Record<string, string> {
  return {
    FOLIO_PORT: '0',
    FOLIO_HOST: '127.0.0.1',
    FOLIO_DATA_DIR: dataDir,
    FOLIO_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    FOLIO_LOG_LEVEL: 'silent',
  };
}

/** The official GitBook client for the server at `url`, authenticated with `token` (the instance admin's by default). */
export function gitbookClient(url: string, token = TEST_ADMIN_TOKEN): GitBookAPI {
  return new GitBookAPI({ endpoint: url, authToken: token });
}

/** A running in-process test server with its clients; `close` also drops its storage. */
export interface TestServer {
  server: RunningServer;
  url: string;
  adminToken: string;
  clock: TestClock;
  /** The official GitBook client, authenticated as the instance admin. */
  client: GitBookAPI;
  /** A GitBook client for another token. */
  clientFor(token: string): GitBookAPI;
  close(): Promise<void>;
}

/**
 * Starts a real server on 127.0.0.1 port 0 with real storage (in-memory
 * PGlite, or a fresh PostgreSQL database), FOLIO_ADMIN_TOKEN set;
 * `options` reach startServer (e.g. a logger and a stream to read its lines).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: Omit<StartOptions, 'clock' | 'inMemory'> = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-test-'));
  const pgDb = testBackend() === 'postgres' ? await freshPostgresDatabase('folio_t') : undefined;
  const config = loadConfig([], {
    ...testServerEnv(dataDir),
    ...(pgDb ? { FOLIO_DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const clock = new TestClock();
  const server = await startServer(config, { ...options, clock, inMemory: true });
  const clientFor = (token: string) => gitbookClient(server.url, token);
  return {
    server,
    url: server.url,
    adminToken: TEST_ADMIN_TOKEN,
    clock,
    client: clientFor(TEST_ADMIN_TOKEN),
    clientFor,
    async close() {
      await server.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
