import os from 'node:os';
import { ContentDoc } from '../../shared/doc';
import { analyzeMarkdown } from '../../shared/markdown';
import { spaceContentDoc } from '../../shared/sync-contract';
import { HOSTILE_PAGES, SLOW_BUT_WITHIN_LIMITS } from '../helpers/hostile-markdown';
import { startBenchServer, type BenchServer } from './fixture';
import type { BenchOutcome } from './http-load';
import { probeHealthz } from './healthz-probe';
import { writeArtifact } from './rest';

/**
 * Hostile markdown (issue 13): `/healthz` latency while a revision of hostile
 * pages is cut and while they are read (REST `format=document`, published
 * site), next to the same probe on the idle server in the same run; plus each
 * page's parse time on the event loop (what revision cutting and reads did
 * before the parse pool) against the server's answer time now. Prints
 * figures, writes test-artifacts/bench-hostile-markdown.json; never fails on
 * timings.
 */
export const name = 'hostile-markdown';

/** Seconds of idle probing for the baseline. */
const IDLE_S = Number(process.env.BENCH_HOSTILE_IDLE_S ?? 3);
/** Pause between two probes (ms): a steady trickle, not a load test. */
const PROBE_GAP_MS = 20;

const PAGES: Record<string, string> = { ...HOSTILE_PAGES, slowWithinLimits: SLOW_BUT_WITHIN_LIMITS };

interface Probe {
  scenario: string;
  samples: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Probes /healthz (healthz-probe.ts) until `until` settles. */
async function probeWhile(b: BenchServer, scenario: string, until: Promise<unknown>): Promise<Probe> {
  const { latencies, failures, elapsedMs } = await probeHealthz(b.url, until, PROBE_GAP_MS);
  return {
    scenario,
    samples: latencies.length,
    failures,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    seconds: elapsedMs / 1000,
  };
}

/** Times `fn` (ms). */
async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function print(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padStart(widths[i]!)).join('  '));
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  // Published pages are read anonymously; the probe and the reads all come from one address.
  const b = await startBenchServer(undefined, { FOLIO_RATE_LIMIT_ANONYMOUS: 'off' });
  try {
    const orgId = (await b.client.orgs.createOrganization({ title: 'Hostile Bench' })).data.id;
    const spaceId = (await b.client.orgs.createSpace(orgId, { title: 'Hostile' })).data.id;
    const siteId = (await b.client.orgs.createSite(orgId, { title: 'Hostile site', spaces: [spaceId] })).data.id;
    await b.client.orgs.publishSite(orgId, siteId);
    console.log(`hostile-markdown: ${b.url} (${b.backend}), parse budget ${b.server.ctx.config.markdownTimeoutMs} ms`);

    const probes: Probe[] = [await probeWhile(b, 'idle', new Promise((r) => setTimeout(r, IDLE_S * 1000)))];

    // Before: the same parse the revision's search indexing ran on the event loop, one page after another.
    const inline: Record<string, number> = {};
    probes.push(
      await probeWhile(
        b,
        'parse on the event loop (before)',
        (async () => {
          // Let the probe's first request go out before the loop is taken.
          await new Promise((r) => setTimeout(r, 50));
          for (const [page, markdown] of Object.entries(PAGES))
            inline[page] = await timed(() => analyzeMarkdown(markdown));
        })(),
      ),
    );

    // After: the pages are written, a revision is cut (search indexing analyses them in the pool).
    const ids: Record<string, string> = {};
    await b.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      const content = new ContentDoc(doc);
      for (const [page, markdown] of Object.entries(PAGES)) ids[page] = content.createPage({ title: page, markdown });
    });
    let revision: string | undefined;
    probes.push(
      await probeWhile(
        b,
        'revision of hostile pages',
        b.server.ctx.snapshots.revise(spaceId).then((id) => (revision = id)),
      ),
    );
    if (!revision) problems.push('no revision was made');

    // Reads: every page as a document and on the published site, all at once.
    const answer: Record<string, number> = {};
    const paths: Record<string, string> = {};
    for (const page of Object.keys(PAGES))
      paths[page] = String(((await b.client.spaces.getPageById(spaceId, ids[page]!)).data as { path?: string }).path);
    const reads = Object.keys(PAGES).flatMap((page) => [
      timed(async () => {
        const res = await fetch(`${b.url}/v1/spaces/${spaceId}/content/page/${ids[page]}?format=document`, {
          headers: { authorization: `Bearer ${b.server.ctx.config.adminToken}` },
        });
        const body = (await res.json()) as { document?: { data?: { degraded?: { reason: string } } } };
        if (res.status !== 200) problems.push(`format=document of ${page}: ${res.status}`);
        console.log(`  ${page}: document ${body.document?.data?.degraded?.reason ?? 'formatted'}`);
      }).then((ms) => (answer[page] = ms)),
      timed(async () => {
        const res = await fetch(`${b.url}/sites/${siteId}/${paths[page]}`);
        const html = await res.text();
        if (res.status !== 200) problems.push(`published ${page}: ${res.status}`);
        console.log(`  ${page}: site ${/data-degraded="([a-z-]+)"/.exec(html)?.[1] ?? 'formatted'}`);
      }),
    ]);
    probes.push(await probeWhile(b, 'reads of hostile pages (REST + site)', Promise.all(reads)));

    console.log('\n/healthz latency (ms, from when each probe was due), probed one request at a time');
    print(
      ['scenario', 'samples', 'failures', 'p50', 'p99', 'max', 'seconds'],
      probes.map((p) => [
        p.scenario,
        String(p.samples),
        String(p.failures),
        p.p50Ms.toFixed(1),
        p.p99Ms.toFixed(1),
        p.maxMs.toFixed(1),
        p.seconds.toFixed(1),
      ]),
    );
    console.log('\nper page: parse on the event loop before (ms) vs the first REST format=document answer now (ms)');
    print(
      ['page', 'chars', 'before', 'now'],
      Object.keys(PAGES).map((page) => [
        page,
        String(PAGES[page]!.length),
        inline[page]!.toFixed(0),
        answer[page]!.toFixed(0),
      ]),
    );
    for (const p of probes) if (p.failures > 0) problems.push(`${p.scenario}: ${p.failures} failed probes`);
    console.log(`\nmarkdown service: ${JSON.stringify(b.server.ctx.markdown.stats())}`);
    const file = await writeArtifact(
      {
        probes,
        pages: Object.keys(PAGES).map((page) => ({
          page,
          chars: PAGES[page]!.length,
          inlineParseMs: inline[page],
          answerMs: answer[page],
        })),
        markdown: b.server.ctx.markdown.stats(),
        budgetMs: b.server.ctx.config.markdownTimeoutMs,
        node: process.version,
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model,
      },
      name,
    );
    console.log(`results: ${file}`);
    return { ok: problems.length === 0, problems };
  } finally {
    await b.close();
  }
}
