import os from 'node:os';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { editedPage, largePage } from '../helpers/large-markdown';
import { startBenchServer, type BenchServer } from './fixture';
import type { BenchOutcome } from './http-load';
import { probeHealthz } from './healthz-probe';
import { writeArtifact } from './rest';

/**
 * Large batches of updateChangeRequestContent (the security issue "an editor
 * stalls the server"): an 8 MB batch of 50 insert_page (~160 kB of markdown
 * each) and a ~4.2 MB batch of 20 update_page (~210 kB each, edited all
 * through), sent to a change request while `/healthz` is probed one request
 * at a time. Prints each batch's request time and the worst /healthz wait,
 * next to the same probe on the idle server in the same run (the baseline),
 * and checks that every page reads back exactly as sent. Writes
 * test-artifacts/bench-content-batch.json; never fails on timings.
 *
 * `npx tsx test/bench/content-batch.ts` (BENCH_BACKEND=postgres for PostgreSQL).
 */
export const name = 'content-batch';

const PROBE_GAP_MS = 20;
const INSERT_PAGES = 50;
const INSERT_CHARS = 160_000;
const UPDATE_PAGES = 20;
const UPDATE_EXTRA_CHARS = 50_000;

interface Probe {
  scenario: string;
  samples: number;
  failures: number;
  p50Ms: number;
  maxMs: number;
  requestMs: number;
  bodyBytes: number;
}

async function probeWhile(
  b: BenchServer,
  scenario: string,
  work: () => Promise<number>,
  bodyBytes: number,
): Promise<Probe> {
  const { latencies, failures, elapsedMs } = await probeHealthz(b.url, work(), PROBE_GAP_MS);
  return {
    scenario,
    samples: latencies.length,
    failures,
    p50Ms: latencies[Math.floor(latencies.length / 2)] ?? 0,
    maxMs: latencies.at(-1) ?? 0,
    requestMs: elapsedMs,
    bodyBytes,
  };
}

async function post(b: BenchServer, path: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${b.url}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.server.ctx.config.adminToken}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, json: await res.json() };
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const b = await startBenchServer();
  try {
    const orgId = (await b.client.orgs.createOrganization({ title: 'Batch Bench' })).data.id;
    const spaceId = (await b.client.orgs.createSpace(orgId, { title: 'Batch' })).data.id;
    const links: string[] = [];
    await b.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      const content = new ContentDoc(doc);
      for (let i = 0; i < 5; i++) links.push(content.createPage({ title: `Linked ${i}`, markdown: `Page ${i}.\n` }));
    });
    const crId = (await b.client.spaces.createChangeRequest(spaceId, {})).data.id;
    console.log(`content-batch: ${b.url} (${b.backend})`);

    const probes: Probe[] = [await probeWhile(b, 'idle', () => new Promise((r) => setTimeout(() => r(0), 2000)), 0)];

    const inserted = Array.from({ length: INSERT_PAGES }, (_, i) => largePage(i + 1, INSERT_CHARS, links));
    const insertBody = JSON.stringify({
      changes: inserted.map((markdown, i) => ({ operation: 'insert_page', title: `P${i}`, document: { markdown } })),
    });
    let pageIds: string[] = [];
    probes.push(
      await probeWhile(
        b,
        `${INSERT_PAGES} x insert_page`,
        async () => {
          const res = await post(b, `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, insertBody);
          if (res.status !== 200) problems.push(`insert batch: ${res.status} ${JSON.stringify(res.json)}`);
          else pageIds = (res.json as { changes: { page: { id: string } }[] }).changes.map((c) => c.page.id);
          return res.status;
        },
        insertBody.length,
      ),
    );

    const updated = pageIds
      .slice(0, UPDATE_PAGES)
      .map((_, i) => editedPage(i + 1, INSERT_CHARS, links, { extraChars: UPDATE_EXTRA_CHARS }));
    const updateBody = JSON.stringify({
      changes: updated.map((markdown, i) => ({ operation: 'update_page', page: pageIds[i], document: { markdown } })),
    });
    probes.push(
      await probeWhile(
        b,
        `${UPDATE_PAGES} x update_page`,
        async () => {
          const res = await post(b, `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, updateBody);
          if (res.status !== 200) problems.push(`update batch: ${res.status} ${JSON.stringify(res.json)}`);
          return res.status;
        },
        updateBody.length,
      ),
    );

    const expected = inserted.map((m, i) => updated[i] ?? m);
    const actual = await b.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => {
      const content = new ContentDoc(doc);
      return pageIds.map((id) => content.getMarkdown(id));
    });
    const wrong = expected.filter((m, i) => actual[i] !== m).length;
    if (pageIds.length !== INSERT_PAGES || wrong > 0) problems.push(`${wrong} pages do not read back as sent`);

    console.log('\nbatch      body MB  request s  /healthz worst ms  p50 ms  probes');
    for (const p of probes)
      console.log(
        [
          p.scenario.padEnd(18),
          (p.bodyBytes / 1e6).toFixed(1).padStart(6),
          (p.requestMs / 1000).toFixed(2).padStart(9),
          p.maxMs.toFixed(0).padStart(18),
          p.p50Ms.toFixed(1).padStart(7),
          String(p.samples).padStart(7),
        ].join('  '),
      );
    const file = await writeArtifact(
      { probes, node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, backend: b.backend },
      'content-batch',
    );
    console.log(`\nresults: ${file}`);
  } finally {
    await b.close();
  }
  return { ok: problems.length === 0, problems };
}

if (import.meta.url === `file://${process.argv[1]}`)
  void run().then((o) => {
    if (!o.ok) console.error(o.problems.join('\n'));
    process.exit(o.ok ? 0 : 1);
  });
