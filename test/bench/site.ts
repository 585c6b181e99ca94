import { request } from 'node:http';
import os from 'node:os';
import { brotliDecompressSync } from 'node:zlib';
import * as Y from 'yjs';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startBenchServer } from './fixture';
import { capture, loadSettings, measure, startBaseline, type BenchOutcome, type Measurement } from './http-load';
import { buildSpace } from './materialize';
import { table, writeArtifact, type ScenarioResult } from './rest';

/**
 * Published-site benchmark: GET a published page (HTML with the sidebar of
 * a 1,000-page space, ~5 MB of content) of a public site, req/s and p99,
 * next to a bare Fastify route serving the same bytes in the same run; and the
 * same page asked with `Accept-Encoding: gzip, deflate, br` (what browsers
 * send), which Folio answers with the brotli bytes it made once when it
 * rendered the page. The three sides alternate within each round.
 */
export const name = 'site';

// The ratio the published-site issue (15) holds the site to: at least what it was before readers got search, themes and the rest.
const TARGET = 0.68;
// The production-parity issue: the compressed page may cost at most 10 % of the uncompressed page's req/s.
const COMPRESSED_TARGET = 0.9;
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br' };

type Side = 'baseline' | 'identity' | 'br';

/** One round: each side measured once, in an order that rotates from round to round. */
type Round = Record<Side, Measurement>;

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
    const compressed = await rawGet(url, BROWSER_ENCODINGS);
    if (compressed.encoding !== 'br' || !brotliDecompressSync(compressed.body).equals(response.body)) {
      problems.push(`GET published page with ${BROWSER_ENCODINGS['accept-encoding']}: not the page in brotli`);
      return { ok: false, problems };
    }
    const baseline = await startBaseline(path, response);
    const rounds: Round[] = [];
    try {
      const targets: Record<Side, { url: string; headers: Record<string, string> }> = {
        baseline: { url: `${baseline.url}${path}`, headers: {} },
        identity: { url, headers: {} },
        br: { url, headers: BROWSER_ENCODINGS },
      };
      const sides: Side[] = ['baseline', 'identity', 'br'];
      if (settings.warmupS > 0)
        for (const side of sides) await measure(targets[side].url, targets[side].headers, settings.warmupS, settings);
      for (let i = 0; i < settings.rounds; i++) {
        const order = sides.map((_, k) => sides[(i + k) % sides.length]!);
        console.log(`site: round ${i + 1}/${settings.rounds} (${order.join(', ')}) …`);
        const round: Partial<Round> = {};
        for (const side of order)
          round[side] = await measure(targets[side].url, targets[side].headers, settings.durationS, settings);
        rounds.push(round as Round);
      }
    } finally {
      await baseline.close();
    }
    for (const round of rounds)
      for (const [who, m] of Object.entries(round)) {
        if (m.non2xx > 0 || m.errors > 0)
          problems.push(`${who} had ${m.non2xx} non-2xx responses and ${m.errors} errors/timeouts`);
        if (m.requests === 0) problems.push(`${who} completed no requests`);
      }
    const ratio = (x: Measurement, y: Measurement) => (y.reqPerSec > 0 ? x.reqPerSec / y.reqPerSec : 0);
    const median = (of: (r: Round) => number) => [...rounds].sort((x, y) => of(x) - of(y))[rounds.length >> 1]!;
    const baseRatio = (r: Round) => ratio(r.identity, r.baseline);
    const brRatio = (r: Round) => ratio(r.br, r.identity);
    const baseRound = median(baseRatio);
    const brRound = median(brRatio);
    const result: ScenarioResult = {
      scenario: 'GET published page (of 1,000)',
      path,
      responseBytes: response.body.length,
      folio: baseRound.identity,
      baseline: baseRound.baseline,
      ratio: baseRatio(baseRound),
      roundRatios: rounds.map(baseRatio),
      target: TARGET,
      targetMet: baseRatio(baseRound) >= TARGET,
    };
    const compression: ScenarioResult = {
      scenario: 'same page, br vs uncompressed',
      path,
      responseBytes: compressed.body.length,
      folio: brRound.br,
      baseline: brRound.identity,
      ratio: brRatio(brRound),
      roundRatios: rounds.map(brRatio),
      target: COMPRESSED_TARGET,
      targetMet: brRatio(brRound) >= COMPRESSED_TARGET,
    };
    console.log('\n' + table([result, compression]));
    console.log(
      '(second row: "folio" = Folio with Accept-Encoding: gzip, deflate, br; "base" = Folio without; ' +
        `bytes = the brotli body, ${((compressed.body.length / response.body.length) * 100).toFixed(1)} % of the page)\n`,
    );
    const file = await writeArtifact(
      {
        bench: name,
        date: new Date().toISOString(),
        backend: b.backend,
        node: process.version,
        cpus: os.cpus().length,
        settings,
        results: [result, compression],
        rounds,
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

/** A GET with node:http (no decoding): the bytes and Content-Encoding as sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
