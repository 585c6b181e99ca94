import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresDatabase } from '../helpers/postgres';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer } from '../../sync-server/server';
import { createUser, issueToken } from '../../sync-server/identity/users';

/**
 * A real Folio server for benchmarks — started exactly like `npm start` would
 * (embedded PGlite on disk in a temp data dir, the default deployment), or on
 * a fresh PostgreSQL database with BENCH_BACKEND=postgres — plus seeding
 * through the public API with the official GitBook client.
 */

export const BENCH_ADMIN_TOKEN = 'folio-bench-admin-token-0123456789';

export type BenchBackend = 'pglite' | 'postgres';

export function benchBackend(): BenchBackend {
  const b = process.env.BENCH_BACKEND ?? 'pglite';
  if (b !== 'pglite' && b !== 'postgres') throw new Error(`BENCH_BACKEND must be pglite or postgres, got "${b}"`);
  return b;
}

export interface BenchServer {
  server: RunningServer;
  url: string;
  backend: BenchBackend;
  /** The official client as the instance admin. */
  client: GitBookAPI;
  clientFor(token: string): GitBookAPI;
  close(): Promise<void>;
}

/** Starts Folio on 127.0.0.1 (port 0) with logging off, default settings but for `env`. */
export async function startBenchServer(
  backend: BenchBackend = benchBackend(),
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-bench-'));
  let pgDb: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  let server: RunningServer;
  try {
    pgDb = backend === 'postgres' ? await freshPostgresDatabase('folio_bench') : undefined;
    const config = loadConfig([], {
      FOLIO_PORT: '0',
      FOLIO_HOST: '127.0.0.1',
      FOLIO_DATA_DIR: dataDir,
      FOLIO_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      FOLIO_LOG_LEVEL: 'silent',
      ...(pgDb ? { FOLIO_DATABASE_URL: pgDb.url } : {}),
      ...env,
    });
    server = await startServer(config, { inMemory: false });
  } catch (err) {
    await pgDb?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const clientFor = (token: string) => new GitBookAPI({ endpoint: server.url, authToken: token });
  return {
    server,
    url: server.url,
    backend,
    client: clientFor(BENCH_ADMIN_TOKEN),
    clientFor,
    async close() {
      try {
        await server.close();
      } finally {
        await pgDb?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Adds `count` new members with role `read` the way people join: users (and
 * their API tokens) are created in the database — there is no user-signup API
 * — then one org invite link is created and every user joins through it with
 * their own client, `concurrency` at a time.
 */
export async function seedMembers(
  b: BenchServer,
  organizationId: string,
  count: number,
  concurrency = 20,
): Promise<void> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const userId = await createUser(b.server.ctx.db, {
      displayName: `Bench User ${i}`,
      email: `bench-${i}@bench.test`,
    });
    tokens.push(await issueToken(b.server.ctx.db, userId, 'bench'));
  }
  const invite = await b.client.orgs.createOrganizationInvite(organizationId, { role: MemberRole.Read });
  await eachLimited(tokens, concurrency, async (token) => {
    await b.clientFor(token).orgs.joinOrganizationWithInvite(organizationId, invite.data.id);
  });
}

/** A JSON call of the REST API as the instance admin; throws on a non-2xx answer (benchmarks measure only successes). */
export async function benchApi(b: BenchServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${b.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
