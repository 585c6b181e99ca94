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
let guideId: string;
let welcomeId: string;

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
    welcomeId = c.createPage({ title: 'Welcome', slug: 'welcome', markdown: 'Everyone reads the aardvark notes.\n' });
    const guide = (guideId = c.createPage({
      title: 'Beta guide',
      slug: 'beta-guide',
      markdown: 'The platypus switch is for beta testers.\n',
      condition: BETA,
    }));
    c.createPage({ title: 'Beta details', slug: 'details', parent: guide, markdown: 'Deeper wombat notes.\n' });
    c.createPage({
      title: 'Linking',
      slug: 'linking',
      markdown: `See [the beta guide](https://app.gitbook.com/o/x/s/${spaceId}/~/page/${guide}) for more.\n`,
    });
    // Every way of naming a page: by id (canonical), by path, relative, as a reference; and a visible one.
    c.createPage({
      title: 'Pointers',
      slug: 'pointers',
      markdown: [
        `Read [the hidden guide](/pages/${guide}) first.`,
        '',
        'Then [its *details* page](/pages/beta-guide/details), [the sibling](./beta-guide.md) and [a reference][g].',
        '',
        `Back to [the welcome page](/pages/${welcomeId}).`,
        '',
        `[g]: /pages/${guide}#setup "The guide"`,
        '',
      ].join('\n'),
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

describe('links to a hidden page', () => {
  const hiddenTargets = () => new RegExp(`${guideId}|beta-guide|/details`);
  /** The page's body (its navigation is tested above). */
  const article = (html: string) => html.slice(html.indexOf('<article>'), html.indexOf('</article>'));
  /** The Pointers page's part of llms-full.txt (the Linking page's app.gitbook.com URL is an external link). */
  const pointersPart = (text: string) => text.slice(text.indexOf('# Pointers'));

  it('are text in the page HTML: no href names the hidden page, visible links stay links', async () => {
    const page = await get('pointers');
    expect(page.status).toBe(200);
    const body = article(page.body);
    expect(body).toContain('<p>Read the hidden guide first.</p>');
    expect(body).toContain('<p>Then its <em>details</em> page, the sibling and a reference.</p>');
    expect(body).toContain(`<a href="/sites/${siteId}/">the welcome page</a>`);
    expect(page.body).not.toMatch(hiddenTargets());
  });

  it('are text in the page markdown (.md) and in llms-full.txt; llms.txt lists no hidden page', async () => {
    const md = await get('pointers.md');
    expect(md.status).toBe(200);
    expect(md.body).toContain('Read the hidden guide first.');
    expect(md.body).toContain('Then its details page, the sibling and a reference.');
    expect(md.body).toContain(`[the welcome page](/pages/${welcomeId})`);
    expect(md.body).not.toMatch(hiddenTargets());
    const full = pointersPart((await get('llms-full.txt')).body);
    expect(full).toContain('Read the hidden guide first.');
    expect(full).toContain(`[the welcome page](/pages/${welcomeId})`);
    expect(full).not.toMatch(hiddenTargets());
    const index = await get('llms.txt');
    expect(index.body).toContain('pointers.md');
    expect(index.body).not.toMatch(hiddenTargets());
  });

  it('stay links for a visitor who may read the page', async () => {
    const jwt = await beta();
    const body = article((await get('pointers', jwt)).body);
    expect(body).toContain(`<a href="/sites/${siteId}/beta-guide">the hidden guide</a>`);
    expect(body).toContain(`<a href="/sites/${siteId}/beta-guide/details">its <em>details</em> page</a>`);
    expect(body).toContain(`<a href="/sites/${siteId}/beta-guide#setup" title="The guide">a reference</a>`);
    const md = await get('pointers.md', jwt);
    expect(md.body).toContain(`[the hidden guide](/pages/${guideId})`);
    expect(md.body).toContain(`[g]: /pages/${guideId}#setup`);
    expect(pointersPart((await get('llms-full.txt', jwt)).body)).toContain(`[the hidden guide](/pages/${guideId})`);
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
