import os from 'node:os';
import * as Y from 'yjs';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startBenchServer } from './fixture';
import { capture, loadSettings, startBaseline, warmAndMeasure, type BenchOutcome } from './http-load';
import { buildSpace } from './materialize';
import { table, writeArtifact, type ScenarioResult } from './rest';

/**
 * Published-site benchmark: GET a published page (HTML with the sidebar of
 * a 1,000-page space, ~5 MB of content) of a public site, req/s and p99,
 * next to a bare Fastify route serving the same bytes in the same run.
 */
export const name = 'site';

// The ratio the published-site issue (15) holds the site to: at least what it was before readers got search, themes and the rest.
const TARGET = 0.68;

export async function run(): Promise<BenchOutcome> {
  const settings = loadSettings();
  const problems: string[] = [];
  // Thousands of anonymous page views a second from one address: the per-address limit (1,200 a minute) would
  // answer most with 429. The bench measures rendering, so it turns that limit off.
  const b = await startBenchServer(undefined, { FOLIO_RATE_LIMIT_ANONYMOUS: 'off' });
  try {
    const orgId = (await b.client.orgs.createOrganization({ title: 'Site Bench' })).data.id;
    const spaceId = (await b.client.orgs.createSpace(orgId, { title: 'Big space' })).data.id;
    const built = buildSpace();
    console.log(`site: loading a 1,000-page space into ${b.url} (${b.backend})…`);
    await b.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) =>
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(built.doc)),
    );
    await b.server.ctx.snapshots.revise(spaceId);
    const siteId = (await b.client.orgs.createSite(orgId, { title: 'Big site', spaces: [spaceId] })).data.id;
    await b.client.orgs.publishSite(orgId, siteId);
    const pageId = built.leafIds[Math.floor(built.leafIds.length / 2)]!;
    const pagePath = (await b.client.spaces.getPageById(spaceId, pageId)).data as { path?: string };
    const path = `/sites/${siteId}/${pagePath.path ?? ''}`;
    const url = `${b.url}${path}`;
    const response = await capture(url, {});
    if (response.status !== 200 || !response.body.toString('utf8').includes('aria-current="page"')) {
      problems.push(
        `GET published page: Folio answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`,
      );
      return { ok: false, problems };
    }
    const baseline = await startBaseline(path, response);
    let base;
    try {
      base = (await warmAndMeasure(`${baseline.url}${path}`, {}, settings)).run;
    } finally {
      await baseline.close();
    }
    console.log('site: GET published page …');
    const folio = (await warmAndMeasure(url, {}, settings)).run;
    for (const [who, m] of [
      ['Folio', folio],
      ['baseline', base],
    ] as const) {
      if (m.non2xx > 0 || m.errors > 0)
        problems.push(`${who} had ${m.non2xx} non-2xx responses and ${m.errors} errors/timeouts`);
      if (m.requests === 0) problems.push(`${who} completed no requests`);
    }
    const ratio = base.reqPerSec > 0 ? folio.reqPerSec / base.reqPerSec : 0;
    const result: ScenarioResult = {
      scenario: 'GET published page (of 1,000)',
      path,
      responseBytes: response.body.length,
      folio,
      baseline: base,
      ratio,
      roundRatios: [ratio],
      target: TARGET,
      targetMet: ratio >= TARGET,
    };
    console.log('\n' + table([result]) + '\n');
    const file = await writeArtifact(
      {
        bench: name,
        date: new Date().toISOString(),
        backend: b.backend,
        node: process.version,
        cpus: os.cpus().length,
        settings,
        results: [result],
        problems,
      },
      name,
    );
    console.log(`site: results written to ${file}`);
  } finally {
    await b.close();
  }
  return { ok: problems.length === 0, problems };
}
