import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Page-level adaptive content on the published site: a page whose condition
 * the visitor fails (and every page under it) is absent from everything a
 * reader can reach: the page and its `.md` copy (404), navigation, links from
 * other pages, search, sitemap.xml and llms.txt. A visitor who passes sees it
 * all; with adaptive content off, conditions do not count (as for sections).
 */
let t: TestServer;
let orgId: string;
let siteId: string;
let spaceId: string;
let key: string;

const BETA = 'visitor.claims.isBeta == true';

async function get(path: string, jwt?: string) {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${t.url}/sites/${siteId}/${path}${jwt ? `${sep}jwt_token=${jwt}` : ''}`, {
    redirect: 'manual',
  });
  return { status: res.status, body: await res.text() };
}
const search = async (q: string, jwt?: string) => {
  const res = await get(`~folio/search?q=${encodeURIComponent(q)}`, jwt);
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { results: { title: string }[] }).results.map((r) => r.title);
};
const beta = () =>
  new SignJWT({ isBeta: true })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key));

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Page Conditions Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const c = new ContentDoc(doc);
    c.createPage({ title: 'Welcome', slug: 'welcome', markdown: 'Everyone reads the aardvark notes.\n' });
    const guide = c.createPage({
      title: 'Beta guide',
      slug: 'beta-guide',
      markdown: 'The platypus switch is for beta testers.\n',
      condition: BETA,
    });
    c.createPage({ title: 'Beta details', slug: 'details', parent: guide, markdown: 'Deeper wombat notes.\n' });
    c.createPage({
      title: 'Linking',
      slug: 'linking',
      markdown: `See [the beta guide](https://app.gitbook.com/o/x/s/${spaceId}/~/page/${guide}) for more.\n`,
    });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Docs site', spaces: [spaceId] })).data.id;
  await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: true } });
  await t.client.orgs.publishSite(orgId, siteId);
  key = (await t.client.orgs.getSitePublishingAuthById(orgId, siteId)).data.privateKey;
});
afterAll(async () => {
  await t?.close();
});

describe('a visitor who fails the page condition', () => {
  it('gets 404 for the page, its sub-pages and their markdown copies', async () => {
    expect((await get('welcome')).status).toBe(200);
    expect((await get('beta-guide')).status).toBe(404);
    expect((await get('beta-guide/details')).status).toBe(404);
    expect((await get('beta-guide.md')).status).toBe(404);
    expect((await get('beta-guide/details.md')).status).toBe(404);
  });

  it('sees neither page in the navigation nor a working link to them', async () => {
    const home = await get('welcome');
    expect(home.body).toContain('Welcome');
    expect(home.body).not.toContain('Beta guide');
    expect(home.body).not.toContain('Beta details');
    const linking = await get('linking');
    expect(linking.status).toBe(200);
    expect(linking.body).not.toContain('beta-guide');
  });

  it('finds nothing of them in search, sitemap.xml, llms.txt or llms-full.txt', async () => {
    expect(await search('aardvark')).toEqual(['Welcome']);
    expect(await search('platypus')).toEqual([]);
    expect(await search('wombat')).toEqual([]);
    for (const file of ['sitemap.xml', 'llms.txt', 'llms-full.txt']) {
      const res = await get(file);
      expect(res.status).toBe(200);
      expect(res.body).toContain('linking');
      expect(res.body).not.toMatch(/beta-guide|platypus|wombat/);
    }
  });
});

describe('a visitor who passes it', () => {
  it('reads the pages, sees them in navigation, search and the machine outputs', async () => {
    const jwt = await beta();
    const page = await get('beta-guide', jwt);
    expect(page.status).toBe(200);
    expect(page.body).toContain('platypus');
    expect(page.body).toContain('Beta details');
    expect((await get('beta-guide/details', jwt)).status).toBe(200);
    expect((await get('linking', jwt)).body).toContain('beta-guide');
    expect(await search('platypus', jwt)).toEqual(['Beta guide']);
    expect((await get('sitemap.xml', jwt)).body).toContain('beta-guide');
    // The anonymous answers cached above did not leak into this audience, nor this one into theirs.
    expect((await get('beta-guide')).status).toBe(404);
    expect(await search('platypus')).toEqual([]);
  });
});

describe('conditions that cannot count', () => {
  it('a condition that fails to evaluate hides the page (adaptive content fails closed)', async () => {
    await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      // Only a peer bypassing the API's grammar check could store this.
      new ContentDoc(doc).createPage({ title: 'Broken', slug: 'broken', markdown: 'x\n', condition: 'process.exit(' });
    });
    await t.server.ctx.snapshots.revise(spaceId);
    expect((await get('broken', await beta())).status).toBe(404);
  });

  it('with adaptive content off, every page is shown to everyone', async () => {
    await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: false } });
    expect((await get('beta-guide')).status).toBe(200);
    expect(await search('platypus')).toEqual(['Beta guide']);
    await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: true } });
    expect((await get('beta-guide')).status).toBe(404);
  });
});
