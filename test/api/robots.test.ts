import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteVisibility } from '@gitbook/api';
import robotsParser from 'robots-parser';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { approveDomain } from '../helpers/domains';
import { startTestServer, type TestServer } from '../helpers/server';
import { httpGet } from '../helpers/http-get';

/**
 * The server's own /robots.txt, read the way a crawler reads it (robots-parser: longest match wins): public
 * sites crawlable with their sitemaps, every other site, the web app, the API and sign-in kept out; a site
 * on its own hostname keeps its own robots.txt.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
const sites: Record<'pub' | 'unlisted' | 'share' | 'visitor' | 'draft', string> = {
  pub: '',
  unlisted: '',
  share: '',
  visitor: '',
  draft: '',
};

/** GET with an optional Host header (node:http sends it as given). */
const get = (path: string, headers: Record<string, string> = {}) => httpGet(t.url, path, headers);

/** The root robots.txt as a crawler understands it. */
async function crawler() {
  const res = await get('/robots.txt');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  const robots = robotsParser(`${t.url}/robots.txt`, res.body);
  return {
    text: res.body,
    allowed: (path: string) => robots.isAllowed(`${t.url}${path}`, 'Googlebot') === true,
    sitemaps: robots.getSitemaps(),
  };
}

async function makeSite(title: string, visibility: SiteVisibility | undefined, publish = true): Promise<string> {
  const id = (await t.client.orgs.createSite(orgId, { title, spaces: [spaceId] })).data.id;
  if (visibility) await t.client.orgs.updateSiteById(orgId, id, { visibility });
  if (publish) await t.client.orgs.publishSite(orgId, id);
  return id;
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Robots Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    new ContentDoc(doc).createPage({ title: 'Home', markdown: 'Crawl me.\n' });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  sites.pub = await makeSite('Public docs', SiteVisibility.Public);
  sites.unlisted = await makeSite('Unlisted docs', SiteVisibility.Unlisted);
  sites.share = await makeSite('Shared docs', SiteVisibility.ShareLink);
  sites.visitor = await makeSite('Visitor docs', SiteVisibility.VisitorAuth);
  sites.draft = await makeSite('Draft docs', SiteVisibility.Public, false);
});
afterAll(async () => {
  await t?.close();
});

describe('the server root robots.txt', () => {
  it('lets crawlers into public sites and names their sitemaps', async () => {
    const c = await crawler();
    expect(c.allowed(`/sites/${sites.pub}/`)).toBe(true);
    expect(c.allowed(`/sites/${sites.pub}/some/page`)).toBe(true);
    expect(c.sitemaps).toEqual([`${t.url}/sites/${sites.pub}/sitemap.xml`]);
    const sitemap = await get(`/sites/${sites.pub}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`<loc>${t.url}/sites/${sites.pub}/</loc>`);
  });

  it('keeps crawlers out of unlisted, share-link, visitor-auth and unpublished sites without naming them', async () => {
    const c = await crawler();
    for (const id of [sites.unlisted, sites.share, sites.visitor, sites.draft]) {
      expect(c.allowed(`/sites/${id}/`), id).toBe(false);
      expect(c.allowed(`/sites/${id}/some/page`), id).toBe(false);
      // robots.txt is public: listing an unlisted site there would publish its address.
      expect(c.text).not.toContain(id);
    }
  });

  it('keeps crawlers out of the web app, the API and sign-in', async () => {
    const c = await crawler();
    for (const path of ['/app/', '/app/s/abc', '/v1/', '/v1/openapi.json', '/auth/', '/auth/methods'])
      expect(c.allowed(path), path).toBe(false);
  });

  it('follows visibility changes, publishing and unpublishing at once', async () => {
    await t.client.orgs.updateSiteById(orgId, sites.pub, { visibility: SiteVisibility.Unlisted });
    await t.client.orgs.updateSiteById(orgId, sites.unlisted, { visibility: SiteVisibility.Public });
    let c = await crawler();
    expect(c.allowed(`/sites/${sites.pub}/`)).toBe(false);
    expect(c.text).not.toContain(sites.pub);
    expect(c.allowed(`/sites/${sites.unlisted}/`)).toBe(true);
    expect(c.sitemaps).toEqual([`${t.url}/sites/${sites.unlisted}/sitemap.xml`]);

    await t.client.orgs.publishSite(orgId, sites.draft);
    c = await crawler();
    expect(c.allowed(`/sites/${sites.draft}/`)).toBe(true);
    await t.client.orgs.unpublishSite(orgId, sites.draft);
    c = await crawler();
    expect(c.allowed(`/sites/${sites.draft}/`)).toBe(false);

    await t.client.orgs.updateSiteById(orgId, sites.pub, { visibility: SiteVisibility.Public });
    await t.client.orgs.updateSiteById(orgId, sites.unlisted, { visibility: SiteVisibility.Unlisted });
    c = await crawler();
    expect(c.allowed(`/sites/${sites.pub}/`)).toBe(true);
    expect(c.allowed(`/sites/${sites.unlisted}/`)).toBe(false);
  });

  it('answers a revalidation of an unchanged file with 304', async () => {
    const first = await get('/robots.txt');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/robots.txt', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('a site on its own hostname', () => {
  it('keeps its own robots.txt, and the root lists it without its sitemap of another host', async () => {
    await approveDomain(t, orgId, 'robots.test');
    await t.client.orgs.updateSiteById(orgId, sites.pub, { hostname: 'docs.robots.test' } as never);
    await t.client.orgs.updateSiteById(orgId, sites.visitor, { hostname: 'private.robots.test' } as never);
    try {
      const port = new URL(t.url).port;
      const own = await get('/robots.txt', { host: 'docs.robots.test' });
      expect(own.status).toBe(200);
      expect(own.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: http://docs.robots.test:${port}/sitemap.xml\n`);
      const closed = await get('/robots.txt', { host: `private.robots.test:${port}` });
      expect(closed.body).toBe('User-agent: *\nDisallow: /\n');

      const c = await crawler();
      expect(c.allowed(`/sites/${sites.pub}/`)).toBe(true);
      expect(c.sitemaps).toEqual([]);
      // A Host that is no site's gets the server's file.
      const other = await get('/robots.txt', { host: 'elsewhere.test' });
      expect(other.body).toBe(c.text);
    } finally {
      await t.client.orgs.updateSiteById(orgId, sites.pub, { hostname: null } as never);
      await t.client.orgs.updateSiteById(orgId, sites.visitor, { hostname: null } as never);
    }
  });
});
