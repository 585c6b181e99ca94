import { fileURLToPath } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresDatabase } from './postgres';
import { TEST_ADMIN_TOKEN } from './server';

/**
 * Real server processes: `npm start`'s entry point (sync-server/main.ts)
 * spawned as children, alone (a crash test) or as a cluster sharing one
 * PostgreSQL database and one Redis.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A server process started by spawnFolio. */
export interface FolioProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything it printed (for failure messages). */
  output(): string;
  /** Resolves when the process has exited (however it ended). */
  exited: Promise<void>;
  /** kill -9: no shutdown, no flush. */
  crash(): void;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** Starts one server process with `env`; resolves once it prints where it listens. */
export function spawnFolio(env: Record<string, string>): Promise<FolioProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      FOLIO_HOST: '127.0.0.1',
      FOLIO_PORT: '0',
      FOLIO_LOG_LEVEL: 'warn',
      FOLIO_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (chunk: Buffer) => (out += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const url = m[1]!;
      resolvePromise({
        child,
        url,
        port: Number(new URL(url).port),
        output: () => out,
        exited,
        crash: () => void child.kill('SIGKILL'),
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

/** Server processes sharing one database and one Redis. */
export interface Cluster {
  processes: FolioProcess[];
  /** Environment every process of this cluster shares (database, Redis, channel prefix). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * `count` server processes on their own ports sharing a fresh PostgreSQL
 * database and the machine's Redis (or `redisUrl`), under a channel prefix of
 * their own so parallel suites never hear each other.
 */
export async function startCluster(
  count: number,
  options: { redisUrl?: string; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const db = options.databaseUrl ? undefined : await freshPostgresDatabase('folio_cluster');
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-cluster-'));
  const env = {
    FOLIO_DATABASE_URL: options.databaseUrl ?? db!.url,
    FOLIO_REDIS_URL: options.redisUrl ?? 'redis://127.0.0.1:6379',
    FOLIO_REDIS_PREFIX: `folio-test-${Math.random().toString(36).slice(2, 10)}`,
    FOLIO_DATA_DIR: dataDir,
    FOLIO_REVISION_QUIET_MS: '100',
    ...options.env,
  };
  // One at a time: the first runs the migrations, the others find them done.
  const processes: FolioProcess[] = [];
  for (let i = 0; i < count; i++) processes.push(await spawnFolio(env));
  return {
    processes,
    env,
    async close() {
      await Promise.all(processes.map((p) => p.stop()));
      await db?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
