import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt } from '../../scripts/build-server.mjs';
import { rssMiB } from '../helpers/server-process';
import type { BenchOutcome } from './http-load';
import { connectPeers, type Peer } from './fanout-peers';
import { median, medianPhase, NO_PHASE, phase, type InsertKind, type PhaseResult } from './fanout-phase';
import { spawnServer, type StartKind } from './fanout-spawn';
import type { SyncServerKind } from './sync-servers';

export type { InsertKind } from './fanout-phase';

/**
 * Fan-out benchmark: one document, N connected clients, one of them the
 * writer making INSERTS (2,000) inserts at the end of a Y.Text, each its own
 * transaction (so its own update and its own frame). Two workloads:
 *   char  BENCH_FANOUT_CLIENTS (100) clients, one character per insert
 *   word  BENCH_FANOUT_WORD_CLIENTS (50) clients, one word (3-12 characters) per insert
 * (BENCH_FANOUT_WORKLOADS=char,word picks them). Two phases after a warm-up:
 * a burst (all inserts in one synchronous loop) and a paced run (one insert
 * per millisecond timer tick; BENCH_FANOUT_PACED=0 skips it). Figures: time
 * until every client has every insert, and the per-update latency (insert at
 * the writer -> arrival at a receiver; p50/p99 over all receivers and
 * updates). The same workload runs against Folio (which commits every update
 * before broadcasting it) and, as baselines, Hocuspocus and the y-websocket
 * 1.5 reference server (both in memory, persisting nothing), in
 * BENCH_FANOUT_ROUNDS (3) rounds that alternate the servers' order; each
 * figure is the median over the rounds, each ratio to Hocuspocus the median
 * of the rounds' ratios (every round's is printed too). Each server runs in
 * its own child process, started as in production (compiled Folio, plain-node
 * Hocuspocus and y-websocket; BENCH_FANOUT_START=sources runs them through tsx);
 * BENCH_FANOUT_REFERENCE=<dir>/main.js adds another Folio build (e.g. the one
 * before a change) as `folio-reference`, and BENCH_FANOUT_FOLIO=<dir>/main.js
 * runs Folio from such a build instead of out/server (neither is rebuilt).
 * The server process's resident memory is sampled before the burst (idle,
 * clients connected) and throughout it (peak), its CPU time over the burst.
 * Writes test-artifacts/bench-fanout.json.
 */

export const name = 'fanout';

const INSERTS = Number(process.env.BENCH_FANOUT_INSERTS ?? 2000);
/**
 * Inserts of the discarded warm-up burst before each server's measured phases
 * (default: as many as a burst). V8 compiles the hot code of the servers, and
 * of the clients in this process, as it runs: with a 200-insert warm-up
 * Hocuspocus's server spent 290-340 ms of CPU on a burst it handles in
 * 130-150 ms once warm, and the first server of a run converged up to 3x
 * slower than in later rounds.
 */
const WARMUP_INSERTS = process.env.BENCH_FANOUT_WARMUP_INSERTS;

/** A named workload: how many clients, what each insert writes. */
export interface Workload {
  name: InsertKind;
  clients: number;
  inserts: number;
}

/** The workloads of `npm run bench -- fanout` (BENCH_FANOUT_WORKLOADS selects). */
export function workloads(): Workload[] {
  const all: Workload[] = [
    { name: 'char', clients: Number(process.env.BENCH_FANOUT_CLIENTS ?? 100), inserts: INSERTS },
    { name: 'word', clients: Number(process.env.BENCH_FANOUT_WORD_CLIENTS ?? 50), inserts: INSERTS },
  ];
  const wanted = (process.env.BENCH_FANOUT_WORKLOADS ?? 'char,word').split(',').map((s) => s.trim());
  return all.filter((w) => wanted.includes(w.name));
}

/** A server as the benchmark runs it: a kind, or another build of Folio. */
export type BenchServerKind = SyncServerKind | 'folio-reference';

export interface ServerResult {
  server: BenchServerKind;
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

/** The workload of one run: clients per server, inserts per phase, what each insert writes, and whether to run the paced phase. */
export interface FanoutOptions {
  clients: number;
  inserts: number;
  paced: boolean;
  /** What each insert writes (default: one character). */
  insert?: InsertKind;
  start?: StartKind;
  /** Folio's compiled entry instead of out/server/main.js (implies a production start). */
  folioEntry?: string;
  /** For `folio-reference`: the compiled entry of the other build. */
  referenceEntry?: string;
}

export async function measureServer(
  kind: BenchServerKind,
  problems: string[],
  options: FanoutOptions,
): Promise<ServerResult | undefined> {
  const syncKind: SyncServerKind = kind === 'folio-reference' ? 'folio' : kind;
  const insert = options.insert ?? 'char';
  const server = await spawnServer(
    syncKind,
    options.start ?? 'sources',
    kind === 'folio-reference' ? options.referenceEntry : kind === 'folio' ? options.folioEntry : undefined,
  );
  let peers: Peer[] = [];
  try {
    console.log(`fanout: ${kind} on ${server.url}: ${options.clients} clients, ${insert} inserts…`);
    peers = await connectPeers(syncKind, server.url, options.clients);
    await phase(peers, Number(WARMUP_INSERTS ?? options.inserts), insert, false, server.pid);
    const rssBeforeBurstMiB = rss(server.pid);
    const stopSampling = sampleRss(server.pid);
    let burst: PhaseResult;
    let rssPeakBurstMiB: number;
    try {
      burst = await phase(peers, options.inserts, insert, false, server.pid);
    } finally {
      rssPeakBurstMiB = stopSampling();
    }
    const paced = options.paced ? await phase(peers, options.inserts, insert, true, server.pid) : NO_PHASE;
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

/** One server's figures over the rounds of a workload: medians, and each round's result. */
export interface ServerSummary {
  server: BenchServerKind;
  rounds: ServerResult[];
  burst: PhaseResult;
  paced: PhaseResult;
  rssBeforeBurstMiB: number;
  rssPeakBurstMiB: number;
  /** Burst convergence ÷ Hocuspocus's in the same round, every round (empty without Hocuspocus). */
  roundRatios: number[];
  /** The median of roundRatios. */
  ratio: number;
}

/**
 * Runs `workload` against every server for `rounds` rounds, rotating which
 * goes first, and summarizes each server (medians; ratios to Hocuspocus per
 * round, then their median).
 */
export async function measureWorkload(
  servers: readonly BenchServerKind[],
  workload: Workload,
  rounds: number,
  problems: string[],
  options: Omit<FanoutOptions, 'clients' | 'inserts' | 'insert'>,
): Promise<ServerSummary[]> {
  const byRound: Map<BenchServerKind, ServerResult>[] = [];
  for (let i = 0; i < rounds; i++) {
    const order = servers.map((_, j) => servers[(i + j) % servers.length]!);
    const results = new Map<BenchServerKind, ServerResult>();
    for (const kind of order) {
      const r = await measureServer(kind, problems, {
        ...options,
        clients: workload.clients,
        inserts: workload.inserts,
        insert: workload.name,
      });
      if (r) results.set(kind, r);
    }
    byRound.push(results);
  }
  return servers.flatMap((server) => {
    const rs = byRound.map((m) => m.get(server)).filter((r): r is ServerResult => r !== undefined);
    if (rs.length === 0) return [];
    const roundRatios = byRound.flatMap((m) => {
      const own = m.get(server);
      const hocus = m.get('hocuspocus');
      return own && hocus ? [own.burst.convergeMs / hocus.burst.convergeMs] : [];
    });
    return [
      {
        server,
        rounds: rs,
        burst: medianPhase(rs.map((r) => r.burst)),
        paced: medianPhase(rs.map((r) => r.paced)),
        rssBeforeBurstMiB: median(rs.map((r) => r.rssBeforeBurstMiB)),
        rssPeakBurstMiB: Math.max(...rs.map((r) => r.rssPeakBurstMiB)),
        roundRatios,
        ratio: median(roundRatios),
      },
    ];
  });
}

function table(results: ServerSummary[]): string {
  const head = [
    'server',
    'burst converge ms',
    'burst written/first ms',
    'burst p50',
    'burst p99',
    'burst CPU ms server/clients',
    'burst frames/client',
    'paced converge ms',
    'paced p50',
    'paced p99',
    'burst vs hocuspocus (rounds)',
    'RSS MiB idle/burst peak',
  ];
  const rows = results.map((r) => [
    r.server,
    r.burst.convergeMs.toFixed(0),
    `${r.burst.writeMs.toFixed(0)}/${r.burst.firstDoneMs.toFixed(0)}`,
    r.burst.p50Ms.toFixed(1),
    r.burst.p99Ms.toFixed(1),
    `${r.burst.serverCpuMs.toFixed(0)}/${r.burst.clientsCpuMs.toFixed(0)}`,
    r.burst.framesPerClient.toFixed(0),
    r.paced.convergeMs.toFixed(0),
    r.paced.p50Ms.toFixed(1),
    r.paced.p99Ms.toFixed(1),
    r.roundRatios.length === 0 ? '-' : `${r.ratio.toFixed(2)}x (${r.roundRatios.map((x) => x.toFixed(2)).join(' / ')})`,
    `${r.rssBeforeBurstMiB.toFixed(0)}/${r.rssPeakBurstMiB.toFixed(0)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The production start when the server builds (out/server, rebuilt when stale), else the sources through tsx (reported). */
async function startKind(problems: string[]): Promise<StartKind> {
  if (process.env.BENCH_FANOUT_FOLIO) return 'production';
  const wanted = process.env.BENCH_FANOUT_START ?? 'production';
  if (wanted !== 'production' && wanted !== 'sources')
    throw new Error(`BENCH_FANOUT_START must be production or sources, got "${wanted}"`);
  if (wanted === 'sources') return 'sources';
  try {
    await ensureServerBuilt();
    return 'production';
  } catch (err) {
    problems.push(`the server did not compile (${(err as Error).message}); servers run from the sources (tsx)`);
    return 'sources';
  }
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const start = await startKind(problems);
  const reference = process.env.BENCH_FANOUT_REFERENCE;
  const servers = (process.env.BENCH_FANOUT_SERVERS ?? 'folio,hocuspocus,y-websocket')
    .split(',')
    .map((s) => s.trim() as BenchServerKind);
  if (reference) servers.splice(1, 0, 'folio-reference');
  const rounds = Math.max(1, Number(process.env.BENCH_FANOUT_ROUNDS ?? 3));
  const paced = process.env.BENCH_FANOUT_PACED !== '0';
  const report: { workload: Workload; results: ServerSummary[] }[] = [];
  for (const workload of workloads()) {
    const results = await measureWorkload(servers, workload, rounds, problems, {
      paced,
      start,
      folioEntry: process.env.BENCH_FANOUT_FOLIO,
      referenceEntry: reference,
    });
    report.push({ workload, results });
  }
  for (const { workload, results } of report) {
    console.log(
      `\n${workload.name}: ${workload.clients} clients, ${workload.inserts} ${workload.name === 'char' ? 'one-character' : 'one-word'} ` +
        `inserts per phase; medians of ${rounds} rounds (${start} start); latencies in ms; ` +
        `"burst vs hocuspocus" = that server's burst convergence time / Hocuspocus's in the same round\n`,
    );
    console.log(table(results) + '\n');
  }
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
        start,
        reference,
        rounds,
        workloads: report,
        problems,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`fanout: results written to ${file}`);
  return { ok: problems.length === 0, problems };
}
