import { join } from 'node:path';
import { createIntegrationSandbox, type SandboxHost, type SandboxRequest } from '../../sync-server/integration-sandbox';
import { bundleIntegration, dispatcherRequest, INTEGRATION_FIXTURES } from '../helpers/integration-bundle';
import type { BenchOutcome } from './http-load';

/**
 * The integration sandbox (issue 32): cold and warm latency and throughput of a trivial handler
 * run in QuickJS on the worker pool, next to the same handler called directly in Node in the same
 * run; plus a real @gitbook/runtime bundle (the fixture integration) handling an event. Prints
 * figures and ratios; never fails on timings.
 */
export const name = 'integration-sandbox';

const WARM_RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 200);
const COLD_RUNS = Number(process.env.BENCH_SANDBOX_COLD ?? 3);
const CONCURRENCY = 8;

const TRIVIAL = `export default { fetch: (request) => new Response('ok ' + request.method) }`;
const request: SandboxRequest = {
  method: 'GET',
  url: 'https://integrations.folio.test/v1',
  headers: [],
  body: new Uint8Array(),
};
const host: SandboxHost = { fetch: async () => ({ status: 204, headers: [], body: new Uint8Array() }) };

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`;

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok && problems.length < 5) problems.push(what);
  };

  // Baseline: the same handler called directly in Node.
  const direct = { fetch: (r: Request) => new Response(`ok ${r.method}`) };
  const baseline: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    const t = performance.now();
    const res = direct.fetch(new Request(request.url));
    await res.arrayBuffer();
    baseline.push(performance.now() - t);
  }

  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const sandbox = createIntegrationSandbox({ poolSize: 1 });
    const t = performance.now();
    const outcome = await sandbox.run(TRIVIAL, request, host);
    cold.push(performance.now() - t);
    check(outcome.ok, `cold run failed: ${outcome.ok ? '' : outcome.message}`);
    await sandbox.close();
  }

  const sandbox = createIntegrationSandbox();
  const warm: number[] = [];
  await sandbox.run(TRIVIAL, request, host);
  for (let i = 0; i < WARM_RUNS; i++) {
    const t = performance.now();
    const outcome = await sandbox.run(TRIVIAL, request, host);
    warm.push(performance.now() - t);
    check(outcome.ok, `warm run failed: ${outcome.ok ? '' : outcome.message}`);
  }

  // Throughput: CONCURRENCY callers keep the pool (2 workers) busy.
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (done < WARM_RUNS * 2) {
        done++;
        const outcome = await sandbox.run(TRIVIAL, request, host);
        check(outcome.ok, 'throughput run failed');
      }
    }),
  );
  const throughput = done / ((performance.now() - started) / 1000);
  const directStarted = performance.now();
  for (let i = 0; i < WARM_RUNS * 2; i++) await direct.fetch(new Request(request.url)).arrayBuffer();
  const directThroughput = (WARM_RUNS * 2) / ((performance.now() - directStarted) / 1000);

  // A real integration: @gitbook/runtime bundled as GitBook's CLI does, handling installation_setup.
  const script = await bundleIntegration(join(INTEGRATION_FIXTURES, 'hello/src/index.js'));
  const event = await dispatcherRequest(
    { eventId: 'bench', type: 'installation_setup', installationId: 'inst' },
    { apiEndpoint: 'http://127.0.0.1:1', apiTokens: { installation: 't' }, integration: { name: 'bench', version: 1 } },
  );
  const gitbook: number[] = [];
  for (let i = 0; i < Math.min(WARM_RUNS, 50); i++) {
    const t = performance.now();
    const outcome = await sandbox.run(script, event, host);
    gitbook.push(performance.now() - t);
    check(outcome.ok && outcome.response.status === 200, 'GitBook runtime run failed');
  }
  await sandbox.close();

  const b = stats(baseline);
  const w = stats(warm);
  const c = stats(cold);
  const g = stats(gitbook);
  console.log(
    `trivial handler, direct in Node:      p50 ${ms(b.p50)}  p95 ${ms(b.p95)}  ${directThroughput.toFixed(0)} calls/s`,
  );
  console.log(
    `trivial handler, sandbox cold:        p50 ${ms(c.p50)} (worker start + QuickJS load + run; ${COLD_RUNS} runs)`,
  );
  console.log(`trivial handler, sandbox warm:        p50 ${ms(w.p50)}  p95 ${ms(w.p95)}  (${WARM_RUNS} runs)`);
  console.log(
    `trivial handler, sandbox throughput:  ${throughput.toFixed(0)} runs/s (pool of 2, ${CONCURRENCY} callers)`,
  );
  console.log(
    `@gitbook/runtime bundle (${(script.length / 1024).toFixed(0)} KiB), installation_setup: p50 ${ms(g.p50)}  p95 ${ms(g.p95)}`,
  );
  console.log(
    `ratios: warm/direct p50 ×${(w.p50 / b.p50).toFixed(0)}, cold/warm p50 ×${(c.p50 / w.p50).toFixed(1)}, ` +
      `direct/sandbox throughput ×${(directThroughput / throughput).toFixed(0)}`,
  );
  return { ok: problems.length === 0, problems };
}
