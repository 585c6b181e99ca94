import { cpuMs } from '../helpers/server-process';
import type { Peer } from './fanout-peers';

/**
 * One measured phase of the fan-out benchmark (fanout.ts): the writer's
 * inserts, and what every receiver saw of them, when.
 */

const CONVERGE_TIMEOUT_MS = 120_000;

/** What one insert writes. */
export type InsertKind = 'char' | 'word';

/** Words of the `word` workload, each with its trailing space or punctuation: 3-12 characters, 6.4 on average. */
const WORDS = ['lorem ', 'ipsum ', 'dolor ', 'sit ', 'amet, ', 'consectetur ', 'adipiscing ', 'elit. ', 'sed ', 'do '];

/** The text of the k-th insert. */
function insertText(kind: InsertKind, k: number): string {
  return kind === 'char' ? 'x' : WORDS[k % WORDS.length]!;
}

/** The figures of one phase. */
export interface PhaseResult {
  convergeMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * CPU time (user + system) the server process used from the first insert to
   * convergence, in ms (10 ms ticks, from /proc; NaN without it): unlike the
   * wall time, other work on the machine hardly moves it.
   */
  serverCpuMs: number;
  /** The same for this process (the writer and every receiver), from process.cpuUsage(). */
  clientsCpuMs: number;
  /** Changes the first receiver applied (about one per update frame the server sent it): how far the server coalesced. */
  framesPerClient: number;
  /** From the first insert to the last one (the writer's own loop, in this process; the whole run when paced). */
  writeMs: number;
  /** From the first insert until the first receiver had them all. */
  firstDoneMs: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Runs one phase: the writer (peers[0]) makes `inserts` inserts of `kind` at
 * the end of the text; waits until every receiver has them all. An insert has
 * arrived at a receiver once the receiver's text reaches its last character.
 */
export async function phase(
  peers: Peer[],
  inserts: number,
  kind: InsertKind,
  paced: boolean,
  serverPid: number | undefined,
): Promise<PhaseResult> {
  const writer = peers[0]!;
  const receivers = peers.slice(1);
  const base = writer.text.length;
  const texts = Array.from({ length: inserts }, (_, k) => insertText(kind, k));
  /** Text length (from base) once insert k has arrived. */
  const ends = new Float64Array(inserts);
  let total = 0;
  texts.forEach((t, k) => (ends[k] = total += t.length));
  const target = base + total;
  const sent = new Float64Array(inserts);
  const latencies = new Float64Array(receivers.length * inserts);
  let count = 0;
  let done = 0;
  let lastArrival = 0;
  let firstArrival = 0;
  let framesPerClient = 0;
  const unobserve = receivers.map((r, i) => {
    let next = 0;
    const onChange = () => {
      if (i === 0) framesPerClient++;
      const now = performance.now();
      const length = r.text.length - base;
      while (next < inserts && ends[next]! <= length) latencies[count++] = now - sent[next++]!;
      if (next === inserts && r.text.length >= target) {
        if (done++ === 0) firstArrival = now;
        lastArrival = now;
        next++;
      }
    };
    r.text.observe(onChange);
    return () => r.text.unobserve(onChange);
  });
  const serverCpuBefore = serverPid === undefined ? NaN : cpuMs(serverPid);
  const clientsCpuBefore = process.cpuUsage();
  const start = performance.now();
  const insert = (k: number) => {
    writer.text.insert(writer.text.length, texts[k]!);
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
  const writeMs = performance.now() - start;
  const deadline = Date.now() + CONVERGE_TIMEOUT_MS;
  while (done < receivers.length) {
    if (Date.now() > deadline)
      throw new Error(`only ${done}/${receivers.length} clients converged within ${CONVERGE_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
  const serverCpuMs = serverPid === undefined ? NaN : cpuMs(serverPid) - serverCpuBefore;
  const clientsCpu = process.cpuUsage(clientsCpuBefore);
  for (const off of unobserve) off();
  const sorted = latencies.subarray(0, count).sort();
  return {
    convergeMs: lastArrival - start,
    writeMs,
    firstDoneMs: firstArrival - start,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
    serverCpuMs,
    clientsCpuMs: (clientsCpu.user + clientsCpu.system) / 1000,
    framesPerClient,
  };
}

/** The figures of a phase that did not run. */
export const NO_PHASE: PhaseResult = {
  convergeMs: 0,
  p50Ms: 0,
  p99Ms: 0,
  maxMs: 0,
  serverCpuMs: 0,
  clientsCpuMs: 0,
  framesPerClient: 0,
  writeMs: 0,
  firstDoneMs: 0,
};

export const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The median of each figure over several runs of a phase. */
export const medianPhase = (ps: PhaseResult[]): PhaseResult => ({
  convergeMs: median(ps.map((p) => p.convergeMs)),
  p50Ms: median(ps.map((p) => p.p50Ms)),
  p99Ms: median(ps.map((p) => p.p99Ms)),
  maxMs: median(ps.map((p) => p.maxMs)),
  serverCpuMs: median(ps.map((p) => p.serverCpuMs)),
  clientsCpuMs: median(ps.map((p) => p.clientsCpuMs)),
  framesPerClient: median(ps.map((p) => p.framesPerClient)),
  writeMs: median(ps.map((p) => p.writeMs)),
  firstDoneMs: median(ps.map((p) => p.firstDoneMs)),
});
