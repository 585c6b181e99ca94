import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from '../helpers/cli-process';
import { freshPostgresDatabase } from '../helpers/postgres';
import { COMPILED_ENTRY, freePort, npmStartEnv, npmStartNodeFlags, START_ARGS } from '../helpers/server-process';
import { BENCH_ADMIN_TOKEN, benchBackend } from './fixture';
import type { SyncServerKind } from './sync-servers';

/**
 * Starting the fan-out benchmark's servers, each in a child process of its
 * own (the clients share the benchmark's process).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How the servers are started: `sources` runs each through tsx from
 * test/bench/sync-servers.ts; `production` runs Folio as `npm start` does
 * (the compiled build in out/server, which must exist: see
 * scripts/build-server.mjs), Hocuspocus and the y-websocket reference server
 * with plain node (hocuspocus-server.mjs, y-websocket-server.mjs), so none
 * carries tsx in its memory.
 */
export type StartKind = 'sources' | 'production';

/** A server process of the benchmark. */
export interface SpawnedServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts one server kind in a child process; resolves once it listens (it
 * prints `LISTENING <url>`, or answers /healthz). `folioEntry` replaces the
 * compiled Folio's entry (another build, e.g. the one before a change, with
 * the same flags and environment); it implies a production start.
 */
export async function spawnServer(kind: SyncServerKind, start: StartKind, folioEntry?: string): Promise<SpawnedServer> {
  if (start === 'sources' && !folioEntry)
    return spawnListening(kind, ['--import', 'tsx', 'test/bench/sync-servers.ts', kind], {});
  if (kind === 'hocuspocus') return spawnListening(kind, ['test/bench/hocuspocus-server.mjs'], {});
  if (kind === 'y-websocket') return spawnListening(kind, ['test/bench/y-websocket-server.mjs'], {});
  const dir = await mkdtemp(join(os.tmpdir(), 'folio-bench-fanout-'));
  const pg = benchBackend() === 'postgres' ? await freshPostgresDatabase('folio_bench_fanout') : undefined;
  const port = await freePort();
  const env = {
    ...childEnv(dir),
    ...npmStartEnv(),
    FOLIO_PORT: String(port),
    FOLIO_HOST: '127.0.0.1',
    FOLIO_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    ...(pg ? { FOLIO_DATABASE_URL: pg.url } : {}),
  };
  const cleanUp = async () => {
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  };
  const args = folioEntry && folioEntry !== COMPILED_ENTRY ? [...npmStartNodeFlags(), folioEntry] : START_ARGS.compiled;
  try {
    const server = await spawnListening(kind, args, env, `http://127.0.0.1:${port}`);
    return { ...server, stop: () => server.stop().finally(cleanUp) };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

function spawnListening(
  kind: SyncServerKind,
  args: string[],
  env: NodeJS.ProcessEnv,
  healthUrl?: string,
): Promise<SpawnedServer> {
  // BENCH_FANOUT_NODE_FLAGS adds Node flags to every server (e.g. --cpu-prof --cpu-prof-dir=...).
  const extra = (process.env.BENCH_FANOUT_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...extra, ...args], {
    cwd: ROOT,
    env: healthUrl ? env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /LISTENING (\S+)/.exec(out);
      if (m && !healthUrl && !settled) {
        settled = true;
        resolve({ url: m[1]!, pid: child.pid, stop });
      }
    });
    child.once('exit', (code) => {
      settled = true;
      reject(new Error(`${kind} server exited (${code}) before listening`));
    });
    if (healthUrl) {
      const poll = async () => {
        while (!settled) {
          const up = await fetch(`${healthUrl}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
          if (up && !settled) {
            settled = true;
            return resolve({ url: healthUrl, pid: child.pid, stop });
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      void poll();
    }
  });
}
