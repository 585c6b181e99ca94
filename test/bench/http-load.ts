import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Load-generation helpers shared by the benchmarks: one autocannon run, a
 * bare Fastify "baseline" route serving fixed bytes, and the env settings.
 * Benchmarks print figures; nothing here asserts on wall-clock numbers.
 */

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

/** Run settings, from the environment (see test/bench/README.md). */
export interface LoadSettings {
  /** Measured seconds per target (BENCH_DURATION_S, default 5). */
  durationS: number;
  /** Discarded warm-up seconds before each measured run (BENCH_WARMUP_S, default 1). */
  warmupS: number;
  /** Concurrent keep-alive connections (BENCH_CONNECTIONS, default 16). */
  connections: number;
  /**
   * autocannon worker threads (BENCH_WORKERS, default 1). With 1 the load
   * generator runs on its own thread, so it does not share the event loop
   * with the server under test; 0 runs it on the main thread.
   */
  workers: number;
  /**
   * Measured runs of each side of a ratio (BENCH_ROUNDS, default 3), alternating between them, so
   * a slow moment of a busy machine falls on one round, not on one side; the median round counts.
   */
  rounds: number;
}

export function loadSettings(): LoadSettings {
  return {
    durationS: envNumber('BENCH_DURATION_S', 5, 1),
    warmupS: envNumber('BENCH_WARMUP_S', 1, 0),
    connections: Math.floor(envNumber('BENCH_CONNECTIONS', 16, 1)),
    workers: Math.floor(envNumber('BENCH_WORKERS', 1, 0)),
    rounds: Math.floor(envNumber('BENCH_ROUNDS', 3, 1)),
  };
}

/** The figures kept from one measured autocannon run. */
export interface Measurement {
  url: string;
  /** Completed requests / measured seconds. */
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  /** Responses with a status outside 200–299. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  durationS: number;
}

/** Runs autocannon against `url` for `seconds` and keeps the figures. */
export async function measure(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  s: LoadSettings,
): Promise<Measurement> {
  const result = await autocannon({
    url,
    method: 'GET',
    headers,
    connections: s.connections,
    duration: seconds,
    // The `workers` key must be absent (not 0) to run on the main thread.
    ...(s.workers > 0 ? { workers: s.workers } : {}),
  });
  const durationS = result.duration > 0 ? result.duration : seconds;
  return {
    url,
    reqPerSec: result.requests.total / durationS,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS,
  };
}

/** A discarded warm-up run (JIT, connection pools, caches), then the measured run. */
export async function warmAndMeasure(
  url: string,
  headers: Record<string, string>,
  s: LoadSettings,
): Promise<{ warmup: Measurement | undefined; run: Measurement }> {
  const warmup = s.warmupS > 0 ? await measure(url, headers, s.warmupS, s) : undefined;
  const run = await measure(url, headers, s.durationS, s);
  return { warmup, run };
}

/** A response captured once from the server under test. */
export interface CapturedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export async function capture(url: string, headers: Record<string, string>): Promise<CapturedResponse> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/octet-stream', body };
}

/** A bare Fastify app listening on 127.0.0.1 that serves fixed bytes. */
export interface Baseline {
  url: string;
  close(): Promise<void>;
}

/**
 * The reference point of a ratio: plain `Fastify()` with one GET route at
 * `path` answering `response` — no auth, database, validation or
 * serialization — so "folio / baseline" is the share of raw HTTP throughput
 * that Folio's own work leaves.
 */
export async function startBaseline(path: string, response: CapturedResponse): Promise<Baseline> {
  const app: FastifyInstance = Fastify();
  app.get(path, (_req, reply) => {
    void reply.status(response.status).header('content-type', response.contentType).send(response.body);
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: address, close: () => app.close() };
}

/** What a benchmark module's run() returns to run.ts. */
export interface BenchOutcome {
  /** False when the figures are meaningless (errors, non-2xx, wrong data). */
  ok: boolean;
  /** Why not ok, one line each. */
  problems: string[];
}
