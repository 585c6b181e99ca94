import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { withFrameAncestors } from '../../sync-server/http/security-headers';
import { startTestServer, type TestServer } from '../helpers/server';
import { RENDERER_DIR } from '../helpers/web-app';
import { approveDomain } from '../helpers/domains';
import { httpGet } from '../helpers/http-get';

/**
 * Security headers on every HTML response, whichever module answers (web
 * app, published pages and their refusal pages, the API reference): nobody
 * may frame them (`frame-ancestors 'none'` + `X-Frame-Options: DENY`), no
 * MIME sniffing, no referrer, and a Content-Security-Policy. JSON answers
 * carry nosniff.
 */
let t: TestServer;
let orgId: string;
let siteId: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Headers Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await t.server.ctx.hub.change(
    spaceContentDoc(spaceId),
    (doc) => void new ContentDoc(doc).createPage({ title: 'Home', markdown: 'Hello.\n' }),
  );
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Headers Site', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined> };

/** GET through node:http, so a Host header can be sent as given. */
const get = (path: string, headers: Record<string, string> = {}): Promise<Answer> => httpGet(t.url, path, headers);

/** The headers every HTML page must carry. */
function expectHtmlHeaders(what: string, res: Answer): string {
  expect(String(res.headers['content-type']), what).toMatch(/^text\/html/);
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, `${what}: CSP`).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
  expect(csp, `${what}: CSP`).toMatch(/default-src/);
  expect(res.headers['x-frame-options'], `${what}: X-Frame-Options`).toBe('DENY');
  expect(res.headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(res.headers['referrer-policy'], `${what}: Referrer-Policy`).toBe('no-referrer');
  return csp;
}

describe('HTML responses', () => {
  it('the web app at /app/ may not be framed', async () => {
    // `npm test` builds the renderer before the suites run.
    expect(existsSync(join(RENDERER_DIR, 'index.html')), 'run `npm run build` first').toBe(true);
    const res = await get('/app/');
    expect(res.status).toBe(200);
    const csp = expectHtmlHeaders('/app/', res);
    // What the app's own <meta> policy allows stays allowed: API calls and sockets to its server.
    expect(csp).toMatch(/connect-src [^;]*\bws:/);
    expect(csp).toMatch(/object-src 'none'/);
  });

  it('published pages, their refusal pages and a custom hostname carry them', async () => {
    const page = await get(`/sites/${siteId}/`);
    expect(page.status).toBe(200);
    expectHtmlHeaders('published page', page);
    const missing = await get(`/sites/${siteId}/no/such/page`);
    expect(missing.status).toBe(404);
    expectHtmlHeaders('published 404 page', missing);
    await approveDomain(t, orgId, 'docs.headers.test');
    await t.client.orgs.updateSiteById(orgId, siteId, { hostname: 'docs.headers.test' } as never);
    try {
      const byHost = await get('/', { host: 'docs.headers.test' });
      expect(byHost.status).toBe(200);
      expectHtmlHeaders('page by custom hostname', byHost);
    } finally {
      await t.client.orgs.updateSiteById(orgId, siteId, { hostname: null } as never);
    }
  });

  it('the API reference keeps its own policy, but is never framed and works over plain HTTP', async () => {
    const res = await get('/reference');
    expect(res.status).toBe(200);
    const csp = expectHtmlHeaders('/reference', res);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/frame-ancestors 'self'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
  });
});

describe('other responses', () => {
  it('JSON answers and errors carry nosniff', async () => {
    for (const path of ['/v1/', '/v1/no-such-route', '/healthz']) {
      const res = await get(path);
      expect(String(res.headers['content-type']), path).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('a policy that says nothing about framing gets frame-ancestors added; one that does keeps it', () => {
    expect(withFrameAncestors("default-src 'self';")).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(withFrameAncestors("default-src 'none'; frame-ancestors 'self'")).toBe(
      "default-src 'none'; frame-ancestors 'self'",
    );
  });
});
