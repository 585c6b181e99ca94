import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Published-site search and machine-readable output (sitemap.xml, robots.txt,
 * llms.txt, llms-full.txt, `<page>.md`): they list what the visitor may read
 * and nothing else — hidden pages, and sections or site spaces whose
 * adaptive-content condition the visitor does not meet, never show.
 */
let t: TestServer;
let orgId: string;
let publicSite: string;
let authSite: string;
let key: string;

async function space(title: string, pages: { title: string; markdown: string; hidden?: boolean; slug?: string }[]) {
  const id = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(id), (doc) => {
    const c = new ContentDoc(doc);
    for (const p of pages) c.createPage(p);
  });
  await t.server.ctx.snapshots.revise(id);
  return id;
}

const jwt = (claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key));

async function get(path: string, cookie?: string) {
  const res = await fetch(`${t.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}
const search = async (siteId: string, q: string, cookie?: string) => {
  const res = await get(`/sites/${siteId}/~folio/search?q=${encodeURIComponent(q)}`, cookie);
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { results: { title: string; url: string; snippet: string }[] }).results;
};

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Search Org' })).data.id;
  const guide = await space('Guide', [
    {
      title: 'Introduction',
      markdown:
        '# Introduction\n\nWelcome aboard.\n\n## Installing the daemon\n\nThe flibbertigibbet daemon listens on port 8080.\n',
    },
    { title: 'Setup', slug: 'setup', markdown: 'Configure the quokka settings.\n' },
    { title: 'Secret draft', slug: 'draft', markdown: 'The zanzibar plan is not public yet.\n', hidden: true },
  ]);
  publicSite = (await t.client.orgs.createSite(orgId, { title: 'Public Docs', spaces: [guide] })).data.id;
  await t.client.orgs.publishSite(orgId, publicSite);

  const open = await space('Open', [{ title: 'Everyone', markdown: 'Common wombat facts.\n' }]);
  const beta = await space('Beta', [{ title: 'Beta notes', markdown: 'The narwhal feature ships soon.\n' }]);
  authSite = (
    await t.client.orgs.createSite(orgId, { title: 'Members', visibility: SiteVisibility.VisitorAuth, spaces: [open] })
  ).data.id;
  const betaSection = (await t.client.orgs.addSectionToSite(orgId, authSite, { spaceId: beta, title: 'Beta' })).data.id;
  await t.client.orgs.updateSiteSectionById(orgId, authSite, betaSection, {
    condition: 'visitor.claims.isBeta == true',
  });
  await t.client.orgs.updateSiteById(orgId, authSite, { adaptiveContent: { enabled: true } });
  await t.client.orgs.publishSite(orgId, authSite);
  key = (await t.client.orgs.getSitePublishingAuthById(orgId, authSite)).data.privateKey;
});
afterAll(async () => {
  await t?.close();
});

describe('site search', () => {
  it('finds a word of a body and points at its section, with a snippet', async () => {
    const results = await search(publicSite, 'flibbertigibbet');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      title: 'Installing the daemon',
      url: `/sites/${publicSite}/#installing-the-daemon`,
    });
    expect(results[0]!.snippet).toContain('flibbertigibbet daemon listens');
    // The anchor exists on the page it points to.
    const page = await get(`/sites/${publicSite}/`);
    expect(page.body).toContain('<h2 id="installing-the-daemon">');
    expect((await search(publicSite, 'quokka'))[0]).toMatchObject({
      title: 'Setup',
      url: `/sites/${publicSite}/setup`,
    });
  });

  it('never returns hidden pages', async () => {
    expect(await search(publicSite, 'zanzibar')).toEqual([]);
  });

  it('answers a bad query with a 4xx in the GitBook error shape', async () => {
    const res = await get(`/sites/${publicSite}/~folio/search?q=${'x'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 400 } });
  });

  it("on a visitor-auth site, returns only what the visitor's claims let them see", async () => {
    expect((await get(`/sites/${authSite}/~folio/search?q=wombat`)).status).toBe(401);
    const plain = `folio_visitor_${authSite}=${await jwt({ isBeta: false })}`;
    const tester = `folio_visitor_${authSite}=${await jwt({ isBeta: true })}`;
    expect((await search(authSite, 'wombat', plain)).map((r) => r.title)).toEqual(['Everyone']);
    expect(await search(authSite, 'narwhal', plain)).toEqual([]);
    expect((await search(authSite, 'narwhal', tester)).map((r) => r.title)).toEqual(['Beta notes']);
    // The hidden section stays out of the machine-readable listings too.
    const llms = await get(`/sites/${authSite}/llms-full.txt`, plain);
    expect(llms.body).toContain('wombat');
    expect(llms.body).not.toContain('narwhal');
    expect((await get(`/sites/${authSite}/llms-full.txt`, tester)).body).toContain('narwhal');
  });
});

describe('machine-readable output', () => {
  it('serves robots.txt: crawl public sites, never restricted ones', async () => {
    const pub = await get(`/sites/${publicSite}/robots.txt`);
    expect(pub.body).toContain('Allow: /');
    expect(pub.body).toContain(`Sitemap: ${t.url}/sites/${publicSite}/sitemap.xml`);
    const auth = await get(`/sites/${authSite}/robots.txt`);
    expect(auth.status).toBe(200);
    expect(auth.body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('lists visible pages in sitemap.xml and llms.txt, and serves each page as markdown', async () => {
    const sitemap = await get(`/sites/${publicSite}/sitemap.xml`);
    expect(sitemap.type).toMatch(/xml/);
    expect(sitemap.body).toContain(`<loc>${t.url}/sites/${publicSite}/</loc>`);
    expect(sitemap.body).toContain(`<loc>${t.url}/sites/${publicSite}/setup</loc>`);
    expect(sitemap.body).not.toContain('draft');
    const llms = await get(`/sites/${publicSite}/llms.txt`);
    expect(llms.body).toMatch(/^# Public Docs\n/);
    expect(llms.body).toContain(`- [Setup](${t.url}/sites/${publicSite}/setup.md)`);
    expect(llms.body).toContain(`- [Introduction](${t.url}/sites/${publicSite}/index.md)`);
    expect(llms.body).not.toContain('Secret draft');
    const md = await get(`/sites/${publicSite}/setup.md`);
    expect(md.type).toMatch(/text\/markdown/);
    expect(md.body).toBe('# Setup\n\nConfigure the quokka settings.\n');
    expect((await get(`/sites/${publicSite}/index.md`)).body).toMatch(/^# Introduction\n\nWelcome aboard\./);
    expect((await get(`/sites/${publicSite}/draft.md`)).status).toBe(404);
    const full = await get(`/sites/${publicSite}/llms-full.txt`);
    expect(full.body).toContain('flibbertigibbet');
    expect(full.body).not.toContain('zanzibar');
  });

  it('gives pages a canonical URL, Open Graph tags, and a 404 page with the site navigation', async () => {
    const page = await get(`/sites/${publicSite}/setup`);
    expect(page.body).toContain(`<link rel="canonical" href="${t.url}/sites/${publicSite}/setup">`);
    expect(page.body).toContain('<meta property="og:title" content="Setup | Public Docs">');
    const missing = await get(`/sites/${publicSite}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('Page not found');
    expect(missing.body).toContain(`<a href="/sites/${publicSite}/setup">Setup</a>`);
    expect(missing.body).toContain('noindex');
    // Every missing address of a site space shows the same page (kept once in the rendered-page cache).
    const other = await get(`/sites/${publicSite}/another/missing/page`);
    expect(other.status).toBe(404);
    expect(other.body).toBe(missing.body);
  });
});
