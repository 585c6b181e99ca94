import { mkdir, writeFile } from 'node:fs/promises';
import { fuzzServer, formatReport, reproducer, type FuzzResult } from '../helpers/openapi-fuzz-run';
import { startTestServer } from '../helpers/server';
import { benchBackend } from './fixture';
import type { BenchOutcome } from './http-load';

/**
 * The long run of the OpenAPI fuzz suite (test/fuzz/openapi.test.ts runs a
 * short one in `npm test`): FUZZ_RUNS requests per operation (default 500,
 * ~70,000 in all) with seed FUZZ_SEED (default: a new one, printed), on
 * BENCH_BACKEND. FUZZ_ONLY (a regular expression over operation ids)
 * narrows it to some operations, to replay a failure; FUZZ_TIMEOUT_MS is
 * the longest wait for one answer (default 10000). Prints counts per status
 * class and every failure with a reproducer; it "fails" (exits non-zero)
 * when any request failed.
 */
export const name = 'fuzz';

/** Prints each failure as it happens and a progress line every `every` requests. */
function progress(every: number): (r: FuzzResult) => void {
  let n = 0;
  let failed = 0;
  const started = Date.now();
  return (r) => {
    n++;
    if (r.problems.length > 0) {
      failed++;
      console.log(`  FAIL ${r.problems.join('; ')}\n    ${reproducer(r.request)}`);
    }
    if (n % every === 0)
      console.log(`  ${n} requests, ${failed} failures, ${Math.round((Date.now() - started) / 1000)} s`);
  };
}

export async function run(): Promise<BenchOutcome> {
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const runs = Number(process.env.FUZZ_RUNS ?? 500);
  const timeoutMs = Number(process.env.FUZZ_TIMEOUT_MS ?? 10_000);
  const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
  // startTestServer picks its storage from FOLIO_TEST_BACKEND (in-memory PGlite or a fresh PostgreSQL database).
  process.env.FOLIO_TEST_BACKEND = benchBackend();
  console.log(`fuzz: seed ${seed}, ${runs} requests per operation, backend ${benchBackend()}`);
  const t = await startTestServer({
    FOLIO_RATE_LIMIT_WRITES: '0',
    FOLIO_RATE_LIMIT_READS: '0',
    FOLIO_RATE_LIMIT_ANONYMOUS: '0',
    FOLIO_RATE_LIMIT_AUTH_FAILURES: '0',
  });
  try {
    const report = await fuzzServer(t.server, t.adminToken, { seed, runs, timeoutMs, only, onResult: progress(1000) });
    console.log(formatReport(report, seed));
    await mkdir('test-artifacts', { recursive: true });
    await writeFile('test-artifacts/bench-fuzz.json', JSON.stringify({ seed, runs, ...report }, null, 2));
    return {
      ok: report.failures.length === 0,
      problems: report.failures.map(
        (f) => `${f.request.operationId} / ${f.request.mutation}: ${f.problems.join('; ')}`,
      ),
    };
  } finally {
    await t.close();
  }
}
