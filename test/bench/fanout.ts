import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from '../helpers/cli-process';
import { freshPostgresDatabase } from '../helpers/postgres';
import { freePort, npmStartEnv, rssMiB, START_ARGS } from '../helpers/server-process';
import { BENCH_ADMIN_TOKEN, benchBackend } from './fixture';
import type { BenchOutcome } from './http-load';
import { connectPeers, type Peer } from './fanout-peers';
import type { SyncServerKind } from './sync-servers';

/**
 * Fan-out benchmark: one document, CLIENTS (100) connected clients, one of
 * them the writer making INSERTS (2,000) one-character inserts, each its own
 * update. Two phases after a warm-up: a burst (all inserts in one synchronous
 * loop) and a paced run (one insert per millisecond timer tick). Figures:
 * time until every client has every insert, and the per-update latency
 * (insert at the writer -> arrival at a receiver; p50/p99 over all
 * receivers and updates). The same workload runs against Folio (which
 * commits every update before broadcasting it) and, as baselines in the same
 * run, the y-websocket 1.5 reference server and Hocuspocus (both in memory,
 * persisting nothing). Each server runs in its own child process; the clients
 * share this one. The server process's resident memory is sampled before the
 * burst (idle, clients connected) and throughout it (peak). Writes
 * test-artifacts/bench-fanout.json.
 */

export const name = 'fanout';

const CLIENTS = Number(process.env.BENCH_FANOUT_CLIENTS ?? 100);
const INSERTS = Number(process.env.BENCH_FANOUT_INSERTS ?? 2000);
const WARMUP_INSERTS = 200;
const CONVERGE_TIMEOUT_MS = 120_000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface PhaseResult {
  convergeMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ServerResult {
  server: SyncServerKind;
  burst: PhaseResult;
  paced: PhaseResult;
  /** The server process's RSS with every client connected, before the burst, in MiB. */
  rssBeforeBurstMiB: number;
  /** The highest RSS of the server process sampled during the burst (every 10 ms), in MiB. */
  rssPeakBurstMiB: number;
}

/** Resident memory of the server process in MiB, 0 when unreadable (no /proc). */
const rss = (pid: number | undefined) => (pid === undefined ? 0 : (rssMiB(pid) ?? 0));

/** Samples the RSS of `pid` every 10 ms until stopped; returns the peak in MiB. */
function sampleRss(pid: number | undefined): () => number {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rss(pid));
  };
}

/** A server process of the benchmark. */
interface SpawnedServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * How the servers are started: `sources` (default) runs each through tsx
 * from test/bench/sync-servers.ts; `production` runs Folio as `npm start`
 * does (the compiled build in out/server, which must exist: see
 * scripts/build-server.mjs) and Hocuspocus with plain node
 * (hocuspocus-server.mjs), so neither carries tsx in its memory.
 */
export type StartKind = 'sources' | 'production';

/** Starts one server kind in a child process; resolves once it listens (it prints `LISTENING <url>`, or answers /healthz). */
async function spawnServer(kind: SyncServerKind, start: StartKind): Promise<SpawnedServer> {
  if (start === 'sources') return spawnListening(kind, ['--import', 'tsx', 'test/bench/sync-servers.ts', kind], {});
  if (kind === 'hocuspocus') return spawnListening(kind, ['test/bench/hocuspocus-server.mjs'], {});
  if (kind !== 'folio') throw new Error(`no production start for ${kind}`);
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
  try {
    const server = await spawnListening(kind, START_ARGS.compiled, env, `http://127.0.0.1:${port}`);
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
  const child: ChildProcess = spawn(process.execPath, args, {
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

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs one phase: the writer (peers[0]) inserts `inserts` characters; waits until every receiver has them all. */
async function phase(peers: Peer[], inserts: number, paced: boolean): Promise<PhaseResult> {
  const writer = peers[0]!;
  const receivers = peers.slice(1);
  const base = writer.text.length;
  const target = base + inserts;
  const sent = new Float64Array(inserts);
  const latencies = new Float64Array(receivers.length * inserts);
  let count = 0;
  let done = 0;
  let lastArrival = 0;
  const unobserve = receivers.map((r) => {
    let seen = r.text.length;
    const onChange = () => {
      const now = performance.now();
      const length = Math.min(r.text.length, target);
      for (let k = seen; k < length; k++) latencies[count++] = now - sent[k - base]!;
      if (seen < target && length >= target) {
        done++;
        lastArrival = now;
      }
      seen = Math.max(seen, length);
    };
    r.text.observe(onChange);
    return () => r.text.unobserve(onChange);
  });
  const start = performance.now();
  const insert = (k: number) => {
    writer.text.insert(writer.text.length, 'x');
    sent[k] = performance.now();
  };
  if (paced) {
    await new Promise<void>((resolve) => {
      let k = 0;
      const timer = setInterval(() => {
        insert(k++);
        if (k === inserts) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
  } else {
    for (let k = 0; k < inserts; k++) insert(k);
  }
  const deadline = Date.now() + CONVERGE_TIMEOUT_MS;
  while (done < receivers.length) {
    if (Date.now() > deadline)
      throw new Error(`only ${done}/${receivers.length} clients converged within ${CONVERGE_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
  for (const off of unobserve) off();
  const sorted = latencies.subarray(0, count).sort();
  return {
    convergeMs: lastArrival - start,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}

/** The workload of one run: clients per server, inserts per phase, and whether to run the paced phase. */
export interface FanoutOptions {
  clients: number;
  inserts: number;
  paced: boolean;
  start?: StartKind;
}

const NO_PHASE: PhaseResult = { convergeMs: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };

export async function measureServer(
  kind: SyncServerKind,
  problems: string[],
  options: FanoutOptions = { clients: CLIENTS, inserts: INSERTS, paced: true },
): Promise<ServerResult | undefined> {
  const server = await spawnServer(kind, options.start ?? 'sources');
  let peers: Peer[] = [];
  try {
    console.log(`fanout: ${kind} on ${server.url}: connecting ${options.clients} clients…`);
    peers = await connectPeers(kind, server.url, options.clients);
    await phase(peers, WARMUP_INSERTS, false);
    const rssBeforeBurstMiB = rss(server.pid);
    const stopSampling = sampleRss(server.pid);
    let burst: PhaseResult;
    let rssPeakBurstMiB: number;
    try {
      burst = await phase(peers, options.inserts, false);
    } finally {
      rssPeakBurstMiB = stopSampling();
    }
    const paced = options.paced ? await phase(peers, options.inserts, true) : NO_PHASE;
    const expected = peers[0]!.text.toString();
    const diverged = peers.filter((p) => p.text.toString() !== expected).length;
    if (diverged > 0) problems.push(`${kind}: ${diverged} clients ended with a different text`);
    return { server: kind, burst, paced, rssBeforeBurstMiB, rssPeakBurstMiB };
  } catch (err) {
    problems.push(`${kind}: ${(err as Error).message}`);
    return undefined;
  } finally {
    for (const p of peers) p.destroy();
    await server.stop();
  }
}

function table(results: ServerResult[]): string {
  const folio = results.find((r) => r.server === 'folio');
  const head = [
    'server',
    'burst converge ms',
    'burst p50',
    'burst p99',
    'paced converge ms',
    'paced p50',
    'paced p99',
    'burst vs folio',
    'RSS MiB idle/burst peak',
  ];
  const rows = results.map((r) => [
    r.server,
    r.burst.convergeMs.toFixed(0),
    r.burst.p50Ms.toFixed(1),
    r.burst.p99Ms.toFixed(1),
    r.paced.convergeMs.toFixed(0),
    r.paced.p50Ms.toFixed(1),
    r.paced.p99Ms.toFixed(1),
    folio ? `${(r.burst.convergeMs / folio.burst.convergeMs).toFixed(2)}x` : '-',
    `${r.rssBeforeBurstMiB.toFixed(0)}/${r.rssPeakBurstMiB.toFixed(0)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const results: ServerResult[] = [];
  for (const kind of ['folio', 'y-websocket', 'hocuspocus'] as const) {
    const r = await measureServer(kind, problems);
    if (r) results.push(r);
  }
  console.log(
    `\n${CLIENTS} clients, ${INSERTS} inserts per phase; latencies in ms; "burst vs folio" = that server's burst convergence time / Folio's\n`,
  );
  console.log(table(results) + '\n');
  const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = `${dir}bench-fanout.json`;
  await writeFile(
    file,
    JSON.stringify(
      {
        bench: name,
        date: new Date().toISOString(),
        backend: process.env.BENCH_BACKEND ?? 'pglite',
        node: process.version,
        cpus: os.cpus().length,
        clients: CLIENTS,
        inserts: INSERTS,
        results,
        problems,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`fanout: results written to ${file}`);
  return { ok: problems.length === 0, problems };
}
