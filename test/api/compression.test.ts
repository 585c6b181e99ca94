import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { acceptedCodings } from '../../sync-server/http/compression';
import { DEFAULT_WEB_APP_DIR } from '../../sync-server/web-app';
import { approveDomain } from '../helpers/domains';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Compression and conditional requests: every covered response decodes, in gzip and in brotli, to the bytes
 * of the identity response; small bodies and clients that refuse codings get identity; revalidations are
 * 304 with no body; the ETag follows the content and the coding.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
let siteId: string;
let homeId: string;
const birdIds: string[] = [];

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent (not decoded). */
  body: Buffer;
}

/** A request with node:http, which neither adds Accept-Encoding nor decodes: the bytes as the server sent them. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const get = (path: string, headers: Record<string, string> = {}) => send('GET', path, headers);

function decode(res: Raw): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body);
  if (coding === 'gzip') return gunzipSync(res.body);
  expect(coding).toBeUndefined();
  return res.body;
}

/**
 * Fetches `path` as identity, gzip and brotli; checks each coding was used, decodes to the identity bytes,
 * with its own Content-Length and ETag and `Vary: Accept-Encoding`; HEAD answers the same headers.
 */
async function expectCompressed(path: string, headers: Record<string, string> = {}) {
  const identity = await get(path, headers);
  expect(identity.status, path).toBe(200);
  expect(identity.headers['content-encoding']).toBeUndefined();
  expect(identity.body.length).toBeGreaterThanOrEqual(1024);
  const etags = new Set([identity.headers.etag]);
  for (const coding of ['gzip', 'br'] as const) {
    const res = await get(path, { ...headers, 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip' });
    expect(res.status, `${path} ${coding}`).toBe(200);
    expect(res.headers['content-encoding'], `${path} ${coding}`).toBe(coding);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.body.length).toBeLessThan(identity.body.length);
    expect(decode(res).equals(identity.body), `${path} ${coding} decodes to the identity bytes`).toBe(true);
    expect(String(res.headers.vary)).toMatch(/\bAccept-Encoding\b/);
    expect(res.headers['content-type']).toBe(identity.headers['content-type']);
    etags.add(res.headers.etag);
    const head = await send('HEAD', path, { ...headers, 'accept-encoding': coding });
    expect(head.body.length).toBe(0);
    for (const h of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type', 'cache-control'])
      expect(head.headers[h], `HEAD ${path} ${h}`).toEqual(res.headers[h]);
  }
  expect(String(identity.headers.vary)).toMatch(/\bAccept-Encoding\b/);
  // One validator per representation: strong for the compressed forms (@fastify/static's own for the web app's
  // uncompressed files is weak).
  expect(etags.size).toBe(3);
  for (const etag of etags) expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
  expect([...etags].filter((e) => String(e).startsWith('"')).length).toBeGreaterThanOrEqual(2);
  return identity;
}

/** Markdown long enough for every output of the site to pass the compression threshold. */
const prose = (topic: string) =>
  Array.from({ length: 24 }, (_, i) => `## ${topic} part ${i}\n\nThe ${topic} paragraph ${i} says a good deal.\n`).join(
    '\n',
  );

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Compression Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const c = new ContentDoc(doc);
    homeId = c.createPage({ title: 'Home', markdown: `# Home\n\n${prose('heron')}` });
    for (let i = 0; i < 20; i++)
      birdIds.push(c.createPage({ title: `Bird ${i}`, slug: `bird-${i}`, markdown: prose(`bird ${i}`) }));
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Bird Docs', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

const site = (rest = '') => `/sites/${siteId}/${rest}`;

describe('published sites', () => {
  it('compress pages, markdown copies, llms.txt, llms-full.txt, sitemap.xml and the site script', async () => {
    const page = await expectCompressed(site('bird-3'));
    expect(page.body.toString()).toContain('bird 3 paragraph');
    expect(String(page.headers.vary)).toMatch(/\bCookie\b/);
    expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    await expectCompressed(site());
    await expectCompressed(site('bird-3.md'));
    await expectCompressed(site('index.md'));
    await expectCompressed(site('llms.txt'));
    await expectCompressed(site('llms-full.txt'));
    await expectCompressed(site('sitemap.xml'));
    const script = /src="([^"]+site\.js\?v=[^"]+)"/.exec(page.body.toString())![1]!;
    await expectCompressed(script);
    // A site's not-found page too.
    const missing = await get(site('no-such-bird'), { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(decode(missing).toString()).toContain('</html>');
  });

  it('compress pages at the root of a custom hostname', async () => {
    await approveDomain(t, orgId, 'birds.test');
    await t.client.orgs.updateSiteById(orgId, siteId, { hostname: 'docs.birds.test' } as never);
    try {
      const page = await expectCompressed('/bird-4', { host: 'docs.birds.test' });
      expect(page.body.toString()).toContain('href="/bird-5"');
      await expectCompressed('/llms-full.txt', { host: 'docs.birds.test' });
    } finally {
      await t.client.orgs.updateSiteById(orgId, siteId, { hostname: null } as never);
    }
  });

  it('leave small bodies and clients that refuse every coding uncompressed', async () => {
    const robots = await get(site('robots.txt'), { 'accept-encoding': 'gzip, br' });
    expect(robots.status).toBe(200);
    expect(robots.body.length).toBeLessThan(1024);
    expect(robots.headers['content-encoding']).toBeUndefined();
    expect(robots.headers.vary).toBe('Cookie');
    for (const refusal of ['identity', 'br;q=0, gzip;q=0', '*;q=0', 'deflate', '']) {
      const res = await get(site('bird-3'), { 'accept-encoding': refusal });
      expect(res.headers['content-encoding'], refusal).toBeUndefined();
      expect(res.body.toString()).toContain('bird 3 paragraph');
    }
  });

  it('answer a revalidation with 304 and no body, and a new ETag once the page changes', async () => {
    const path = site('bird-7');
    for (const coding of ['br', 'gzip', undefined]) {
      const headers: Record<string, string> = coding ? { 'accept-encoding': coding } : {};
      const first = await get(path, headers);
      const etag = String(first.headers.etag);
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(path, { ...headers, 'if-none-match': inm });
        expect(again.status, `${coding} ${inm}`).toBe(304);
        expect(again.body.length).toBe(0);
        expect(again.headers.etag).toBe(etag);
        expect(String(again.headers.vary)).toMatch(/Accept-Encoding/);
      }
      expect((await get(path, { ...headers, 'if-none-match': '"other"' })).status).toBe(200);
    }
    // The brotli ETag does not validate the gzip bytes.
    const br = String((await get(path, { 'accept-encoding': 'br' })).headers.etag);
    expect((await get(path, { 'accept-encoding': 'gzip', 'if-none-match': br })).status).toBe(200);

    const before = await get(path, { 'accept-encoding': 'br' });
    await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) =>
      new ContentDoc(doc).setMarkdown(birdIds[7]!, prose('changed bird')),
    );
    await t.server.ctx.snapshots.revise(spaceId);
    const after = await get(path, { 'accept-encoding': 'br', 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(decode(after).toString()).toContain('changed bird paragraph');
  });
});

describe('the API', () => {
  it('compresses /v1/openapi.json once and answers its revalidation with 304', async () => {
    const doc = await expectCompressed('/v1/openapi.json');
    expect(JSON.parse(doc.body.toString()).openapi).toBe('3.1.0');
    const br = await get('/v1/openapi.json', { 'accept-encoding': 'br' });
    const again = await get('/v1/openapi.json', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('compresses a page read from its prepared bytes (GET page), and keeps its identity ETag', async () => {
    const auth = { authorization: `Bearer ${t.adminToken}` };
    const path = `/v1/spaces/${spaceId}/content/page/${homeId}`;
    const identity = await expectCompressed(path, auth);
    expect(JSON.parse(identity.body.toString()).id).toBe(homeId);
    const br = await get(path, { ...auth, 'accept-encoding': 'br' });
    expect(
      (await get(path, { ...auth, 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) })).status,
    ).toBe(304);
    expect((await get(path, { ...auth, 'if-none-match': String(identity.headers.etag) })).status).toBe(304);
  });

  it('leaves errors in the GitBook shape, uncompressed when small', async () => {
    const res = await get(`/v1/spaces/nope/content/page/nope`, { 'accept-encoding': 'br' });
    expect(res.status).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: { code: 401 } });
  });
});

describe('the web app', () => {
  const assets = join(DEFAULT_WEB_APP_DIR, 'assets');
  const built = existsSync(join(DEFAULT_WEB_APP_DIR, 'index.html')) && existsSync(assets);
  it.skipIf(!built)('serves its large scripts and styles compressed, its small files as they are', async () => {
    const files = readdirSync(assets).map((name) => ({ name, size: statSync(join(assets, name)).size }));
    const big = files.filter((f) => /\.(js|css)$/.test(f.name)).sort((a, b) => b.size - a.size);
    const script = await expectCompressed(`/app/assets/${big[0]!.name}`);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const style = big.find((f) => f.name.endsWith('.css') && f.size >= 1024);
    if (style) await expectCompressed(`/app/assets/${style.name}`);
    const small = files.find((f) => f.name.endsWith('.js') && f.size < 1024);
    if (small) {
      const res = await get(`/app/assets/${small.name}`, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    // Paths that climb out of the app are never read.
    expect((await get('/app/assets/..%2f..%2fpackage.json', { 'accept-encoding': 'br' })).status).toBe(404);
  });
});

describe('Accept-Encoding', () => {
  it('is read with its q-values: q=0 refuses, * covers what is not named, brotli wins ties', () => {
    expect(acceptedCodings(undefined)).toEqual([]);
    expect(acceptedCodings('gzip, deflate, br')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('gzip;q=1.0, br;q=0.5')).toEqual(['gzip', 'br']);
    expect(acceptedCodings('br;q=0, *')).toEqual(['gzip']);
    expect(acceptedCodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('*;q=0, gzip')).toEqual(['gzip']);
    expect(acceptedCodings('identity')).toEqual([]);
    expect(acceptedCodings('x-gzip')).toEqual(['gzip']);
    expect(acceptedCodings('BR; Q=0.9')).toEqual(['br']);
    expect(acceptedCodings('br;q=banana')).toEqual([]);
  });
});
