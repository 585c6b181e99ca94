import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, raw } from '../helpers/api';
import { approveDomain } from '../helpers/domains';
import { httpGet } from '../helpers/http-get';

/** The published site over HTTP: rendering, links, sanitizing, visibility, hostnames, freshness. */
let t: TestServer;
let orgId: string;
let spaceId: string;
let siteId: string;
const ids: Record<string, string> = {};

async function edit(docName: string, fn: (c: ContentDoc) => void) {
  await t.server.ctx.hub.change(docName, (doc) => fn(new ContentDoc(doc)));
}

/** GET with optional Host and Cookie headers (node:http, so the Host header is sent as given). */
const get = (path: string, headers: Record<string, string> = {}) => httpGet(t.url, path, headers);

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Published Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await edit(spaceContentDoc(spaceId), (c) => {
    c.putFile('file1', { name: 'guide.pdf', contentType: 'application/pdf', size: 3, sha256: 'a'.repeat(64) });
    ids.intro = c.createPage({
      title: 'Introduction',
      description: 'Start here',
      markdown:
        '# Welcome\n\nRead [the setup](/pages/SETUP) and [download](/files/file1).\n\n## Details\n\nSee [below](#details).\n',
    });
    ids.setup = c.createPage({
      id: 'SETUP',
      title: 'Setup',
      slug: 'setup',
      markdown: 'Back to [intro](./introduction.md).\n',
    });
    ids.evil = c.createPage({
      title: 'Evil <b>title</b>',
      slug: 'evil',
      markdown:
        'Hi <script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3)) <iframe src="https://evil.example"></iframe>\n\n<a href="#" onclick="alert(4)">x</a>\n',
    });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Handbook Site', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

const site = (rest = '') => `/sites/${siteId}/${rest}`;

describe('rendering', () => {
  it('serves the first page at the site root with navigation, title, description and a strict CSP', async () => {
    const res = await get(site());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<title>Introduction | Handbook Site</title>');
    expect(res.body).toContain('<meta name="description" content="Start here">');
    expect(res.body).toContain('<h1 class="title">Introduction</h1>');
    expect(res.body).toContain(`href="/sites/${siteId}/setup"`);
    expect(res.body).not.toContain('noindex');
    expect(res.headers['x-robots-tag']).toBeUndefined();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'; script-src 'self' 'sha256-[^']+'; style-src 'sha256-[^']+';/);
    expect(csp).not.toContain('unsafe-inline');
    // Scripts only enhance: the one external script of the site, and the inline theme boot allowed by hash.
    const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual(['', expect.stringMatching(/^ src="\/sites\/[^"]+\/~folio\/site\.js\?v=[\w-]+" defer$/)]);
  });

  it('rewrites links to pages, anchors and files', async () => {
    const res = await get(site());
    expect(res.body).toContain(`<a href="/sites/${siteId}/setup">the setup</a>`);
    expect(res.body).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/v1\/files\/a{64}\/guide\.pdf\?[^"]+">download<\/a>/);
    // Heading ids are the anchors search results and `/pages/<id>#anchor` links use.
    expect(res.body).toContain('<h2 id="details">Details<a class="anchor" href="#details"');
    expect(res.body).toContain('<a href="#details">below</a>');
    const setup = await get(site('setup'));
    expect(setup.status).toBe(200);
    expect(setup.body).toContain(`<a href="/sites/${siteId}/">intro</a>`);
    expect(setup.body).toContain('aria-current="page">Setup</a>');
    expect((await get(site('nope'))).status).toBe(404);
    const bare = await raw(t, 'GET', `/sites/${siteId}`);
    expect(bare.status).toBe(200);
  });

  it('renders HTML injection in page content inert', async () => {
    const res = await get(site('evil'));
    expect(res.status).toBe(200);
    const article = /<article>([\s\S]*)<\/article>/.exec(res.body)?.[1] ?? '';
    expect(article).toContain('Hi alert(1)');
    expect(article).not.toMatch(/<script|onerror|onclick|javascript:|<iframe/i);
    expect(res.body).not.toMatch(/onerror|onclick|javascript:|<iframe/i);
    expect(res.body).toContain('Evil &#60;b&#62;title&#60;/b&#62;');
  });

  it('does not serve unpublished or unknown sites, and shows new revisions at once', async () => {
    const other = (await t.client.orgs.createSite(orgId, { title: 'Draft site', spaces: [spaceId] })).data.id;
    expect((await get(`/sites/${other}/`)).status).toBe(404);
    expect((await get('/sites/nosuchsite/')).status).toBe(404);
    await t.client.orgs.publishSite(orgId, other);
    expect((await get(`/sites/${other}/`)).status).toBe(200);
    await t.client.orgs.unpublishSite(orgId, other);
    expect((await get(`/sites/${other}/`)).status).toBe(404);
    // A live edit, once it becomes a revision.
    await edit(spaceContentDoc(spaceId), (c) => c.setMarkdown(ids.setup!, 'Freshly edited setup.\n'));
    await t.server.ctx.snapshots.revise(spaceId);
    expect((await get(site('setup'))).body).toContain('Freshly edited setup.');
    // A merged change request.
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Update setup' })).data.id;
    await edit(crContentDoc(cr), (c) => c.setMarkdown(ids.setup!, 'Merged setup text.\n'));
    await t.server.ctx.snapshots.reviseChangeRequest(cr);
    await t.client.spaces.mergeChangeRequest(spaceId, cr);
    expect((await get(site('setup'))).body).toContain('Merged setup text.');
    // A site change (title) shows too.
    await t.client.orgs.updateSiteById(orgId, siteId, { title: 'Renamed Handbook' });
    expect((await get(site('setup'))).body).toContain('Renamed Handbook');
  });
});

describe('custom hostname', () => {
  it('takes only a hostname its organization verified, and serves nothing once the proof is dropped', async () => {
    const unproved = await raw(t, 'PATCH', `/v1/orgs/${orgId}/sites/${siteId}`, {
      token: t.adminToken,
      body: { hostname: 'docs.unproved.test' },
    });
    expectError(unproved, 400, /verify "docs\.unproved\.test"/);
    expect((await get('/', { host: 'docs.unproved.test' })).status).toBe(404);
    // A hostname stored before verification existed (a row written directly) serves nothing either.
    await t.server.ctx.db.query('UPDATE sites SET hostname = $2 WHERE id = $1', [siteId, 'docs.legacy.test']);
    expect((await get('/', { host: 'docs.legacy.test' })).status).toBe(404);
    await approveDomain(t, orgId, 'legacy.test');
    expect((await get('/', { host: 'docs.legacy.test' })).status).toBe(200);
    const dropped = await raw(t, 'DELETE', `/v1/orgs/${orgId}/domains/legacy.test`, { token: t.adminToken });
    expect(dropped.status).toBe(204);
    expect((await get('/', { host: 'docs.legacy.test' })).status).toBe(404);
    await t.client.orgs.updateSiteById(orgId, siteId, { hostname: null } as never);
  });

  it('serves the site at the root of its hostname, and never takes over /v1', async () => {
    await approveDomain(t, orgId, 'published.test');
    await t.client.orgs.updateSiteById(orgId, siteId, { hostname: 'docs.published.test' } as never);
    const home = await get('/', { host: 'docs.published.test' });
    expect(home.status).toBe(200);
    expect(home.body).toContain('href="/setup"');
    expect((await get('/setup', { host: 'docs.published.test:8080' })).status).toBe(200);
    const api = await get('/v1/user', { host: 'docs.published.test' });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 401 } });
    expect((await get('/healthz', { host: 'docs.published.test' })).body).toContain('ok');
    // Another Host is not the site.
    expectError(await raw(t, 'GET', '/setup'), 404);
    await t.client.orgs.updateSiteById(orgId, siteId, { hostname: null } as never);
    expect((await get('/setup', { host: 'docs.published.test' })).status).toBe(404);
  });
});

describe('visibility', () => {
  it('marks unlisted sites noindex', async () => {
    await t.client.orgs.updateSiteById(orgId, siteId, { visibility: SiteVisibility.Unlisted });
    const res = await get(site());
    expect(res.status).toBe(200);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(res.headers['x-robots-tag']).toBe('noindex');
  });

  it('opens share-link sites only with the share key, then by cookie', async () => {
    await t.client.orgs.updateSiteById(orgId, siteId, { visibility: SiteVisibility.ShareLink });
    const published = (await t.client.orgs.getSiteById(orgId, siteId)).data.urls.published!;
    const key = new URL(published).searchParams.get('share')!;
    const missing = await get(site());
    expect(missing.status).toBe(401);
    expect(missing.body).not.toContain('Introduction');
    const wrong = await get(site('?share=wrong-key'));
    expect(wrong.status).toBe(403);
    const right = await get(site(`?share=${key}`));
    expect(right.status).toBe(200);
    expect(right.headers['x-robots-tag']).toBe('noindex');
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`folio_share_${siteId}=${key}`);
    expect(String(right.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
    expect((await get(site('setup'), { cookie })).status).toBe(200);
    expect((await get(site('setup'), { cookie: `folio_share_${siteId}=bad` })).status).toBe(403);
  });
});
