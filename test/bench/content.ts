import os from 'node:os';
import * as Y from 'yjs';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startBenchServer } from './fixture';
import { loadSettings, type BenchOutcome } from './http-load';
import { buildSpace } from './materialize';
import { runScenario, table, writeArtifact, type Scenario, type ScenarioResult } from './rest';

/**
 * Content read benchmark: GET page req/s and p99 on a 1,000-page, ~5 MB space
 * (the materialize bench's space, loaded into a real server's live document
 * and made its current revision), next to a bare Fastify route serving the
 * same bytes. Target: ratio >= 0.5. Also GET of the whole current revision.
 */
export const name = 'content';

const GET_PAGE_TARGET = 0.5;

export async function run(): Promise<BenchOutcome> {
  const settings = loadSettings();
  const problems: string[] = [];
  const b = await startBenchServer();
  try {
    const orgId = (await b.client.orgs.createOrganization({ title: 'Content Bench' })).data.id;
    const spaceId = (await b.client.orgs.createSpace(orgId, { title: 'Big space' })).data.id;
    const built = buildSpace();
    const state = Y.encodeStateAsUpdate(built.doc);
    console.log(
      `content: loading a 1,000-page space (${(state.byteLength / 1e6).toFixed(1)} MB Yjs state) into ${b.url} (${b.backend})…`,
    );
    const t0 = performance.now();
    await b.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => Y.applyUpdate(doc, state));
    const revision = await b.server.ctx.snapshots.revise(spaceId);
    console.log(`content: revision ${revision} stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const pageId = built.leafIds[Math.floor(built.leafIds.length / 2)]!;
    const scenarios: Scenario[] = [
      {
        name: 'GET page (of 1,000)',
        path: `/v1/spaces/${spaceId}/content/page/${pageId}`,
        check: (body) => ((body as { id?: string }).id === pageId ? undefined : 'wrong page'),
        target: GET_PAGE_TARGET,
      },
      {
        name: 'GET content (whole revision)',
        path: `/v1/spaces/${spaceId}/content`,
        check: (body) => ((body as { id?: string }).id === revision ? undefined : 'not the new revision'),
      },
    ];
    const results: ScenarioResult[] = [];
    for (const sc of scenarios) {
      console.log(`content: ${sc.name} …`);
      const r = await runScenario(b, sc, settings, problems);
      if (r) results.push(r);
    }
    console.log('\n' + table(results) + '\n');
    const file = await writeArtifact(
      {
        bench: name,
        date: new Date().toISOString(),
        backend: b.backend,
        node: process.version,
        cpus: os.cpus().length,
        settings,
        results,
        problems,
      },
      name,
    );
    console.log(`content: results written to ${file}`);
  } finally {
    await b.close();
  }
  return { ok: problems.length === 0, problems };
}
