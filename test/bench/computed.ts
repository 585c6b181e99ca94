import { BENCH_ADMIN_TOKEN, benchApi, startBenchServer, type BenchServer } from './fixture';
import type { BenchOutcome } from './http-load';
import { writeArtifact } from './rest';

/**
 * Pages generated from an OpenAPI spec (a computed page): reading a space whose computed page
 * expands to 40 tag pages of a 400-operation spec — the first read after a new spec version (the
 * expansion is made) and warm reads (cached per revision and spec version) — against the same
 * reads of a space holding the same pages as plain documents, the baseline, in the same run.
 * Writes test-artifacts/bench-computed.json; never fails on timings.
 *
 * `npm run bench -- computed`
 */
export const name = 'computed';

const TAGS = 40;
const PER_TAG = 10;
const WARM_READS = 200;

function spec(version: string) {
  const paths: Record<string, unknown> = {};
  for (let t = 0; t < TAGS; t++)
    for (let o = 0; o < PER_TAG; o++)
      paths[`/tag${t}/op${o}`] = {
        get: { tags: [`tag${t}`], summary: `Operation ${o} of tag ${t}`, responses: { '200': { description: 'ok' } } },
      };
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Bench API', version }, paths });
}

const api = benchApi;

async function timeRead(b: BenchServer, spaceId: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${b.url}/v1/spaces/${spaceId}/content/pages`, {
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
  });
  await res.arrayBuffer();
  return performance.now() - t0;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchOutcome> {
  const b = await startBenchServer();
  try {
    const org = (await api(b, 'POST', '/orgs', { title: 'Bench' })).id as string;
    await api(b, 'PUT', `/orgs/${org}/openapi/bench`, { source: { text: spec('1') } });
    await b.server.ctx.jobRunner.drain();
    const computed = (await api(b, 'POST', `/orgs/${org}/spaces`, { title: 'Computed' })).id as string;
    const plain = (await api(b, 'POST', `/orgs/${org}/spaces`, { title: 'Plain' })).id as string;
    const source = {
      type: 'builtin:openapi',
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'bench' } } },
      props: { models: false },
    };
    const write = async (spaceId: string, changes: unknown[]) => {
      const cr = (await api(b, 'POST', `/spaces/${spaceId}/change-requests`, {})).id as string;
      await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/content`, { changes });
      await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/merge`);
    };
    await write(computed, [{ operation: 'insert_page', title: 'API reference', computed: source }]);
    // The baseline: the pages the computed page generates, stored as documents.
    const generated = (await api(b, 'GET', `/spaces/${computed}/content/pages`)).pages as {
      title: string;
      markdown: string;
      pages: { title: string; markdown: string }[];
    }[];
    await write(plain, [
      { operation: 'insert_page', ref: 'root', title: 'API reference', document: { markdown: generated[0]!.markdown } },
      ...generated[0]!.pages.map((p) => ({
        operation: 'insert_page',
        title: p.title,
        document: { markdown: p.markdown },
      })),
    ]);
    await api(b, 'PUT', `/orgs/${org}/openapi/bench`, { source: { text: spec('2') } });
    await b.server.ctx.jobRunner.drain();
    const coldComputed = await timeRead(b, computed);
    const coldPlain = await timeRead(b, plain);
    const warmComputed: number[] = [];
    const warmPlain: number[] = [];
    for (let i = 0; i < WARM_READS; i++) {
      warmComputed.push(await timeRead(b, computed));
      warmPlain.push(await timeRead(b, plain));
    }
    const report = {
      generatedPages: generated[0]!.pages.length,
      operations: TAGS * PER_TAG,
      firstReadAfterNewVersionMs: Math.round(coldComputed * 10) / 10,
      baselineFirstReadMs: Math.round(coldPlain * 10) / 10,
      warmP50Ms: Math.round(p50(warmComputed) * 100) / 100,
      baselineWarmP50Ms: Math.round(p50(warmPlain) * 100) / 100,
    };
    console.log(
      `listPages of a computed page (${report.generatedPages} generated pages, ${report.operations} operations):`,
    );
    console.log(
      `  first read after a new spec version ${report.firstReadAfterNewVersionMs} ms (plain documents: ${report.baselineFirstReadMs} ms, ${(coldComputed / coldPlain).toFixed(2)}x)`,
    );
    console.log(
      `  warm p50 ${report.warmP50Ms} ms (plain documents: ${report.baselineWarmP50Ms} ms, ${(p50(warmComputed) / p50(warmPlain)).toFixed(2)}x)`,
    );
    console.log(`  ${await writeArtifact(report, 'computed')}`);
    return { ok: report.generatedPages === TAGS, problems: report.generatedPages === TAGS ? [] : ['wrong page count'] };
  } finally {
    await b.close();
  }
}
