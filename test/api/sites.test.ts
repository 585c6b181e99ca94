import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteVisibility, type Site } from '@gitbook/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { approveDomain } from '../helpers/domains';

/** Sites: create, read, list with filters, update with every limit and pattern, publish, delete, permissions. */
let t: TestServer;
let orgId: string;
let spaceId: string;
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Sites Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const base = () => `/v1/orgs/${orgId}/sites`;

describe('sites', () => {
  it('creates a site with spaces, reads it, and lists it with filters', async () => {
    const site = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Docs', spaces: [spaceId] }), 201);
    expect(site).toMatchObject({
      object: 'site',
      title: 'Docs',
      type: 'basic',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      agentsContext: 'included',
    });
    expect(site.urls.published).toBeUndefined();
    const got = await ok('getSiteById', t.client.orgs.getSiteById(orgId, site.id));
    expect(got.id).toBe(site.id);
    const other = await ok(
      'createSite',
      t.client.orgs.createSite(orgId, { title: 'Other site', visibility: SiteVisibility.Unlisted }),
      201,
    );
    expect(other.siteSpaces).toBe(0);
    const all = await ok('listSites', t.client.orgs.listSites(orgId));
    expect(all.items.map((s) => s.id)).toEqual(expect.arrayContaining([site.id, other.id]));
    expect((await ok('listSites', t.client.orgs.listSites(orgId, { space: spaceId }))).items.map((s) => s.id)).toEqual([
      site.id,
    ]);
    expect((await ok('listSites', t.client.orgs.listSites(orgId, { title: 'other' }))).items.map((s) => s.id)).toEqual([
      other.id,
    ]);
    expect((await ok('listSites', t.client.orgs.listSites(orgId, { published: true }))).items).toEqual([]);
    const paged = await ok('listSites', t.client.orgs.listSites(orgId, { limit: 1 }));
    expect(paged.items).toHaveLength(1);
    expect(paged.next?.page).toBeTruthy();
  });

  it('creates a new space for a site with spaces: "new"', async () => {
    const res = await raw(t, 'POST', base(), { token: t.adminToken, body: { title: 'Fresh', spaces: 'new' } });
    expect(res.status).toBe(201);
    expect((res.body as { siteSpaces: number }).siteSpaces).toBe(1);
  });

  it('updates every setting, publishes, and exposes a real published URL', async () => {
    const site = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Settings' }), 201);
    const updated = await ok(
      'updateSiteById',
      t.client.orgs.updateSiteById(orgId, site.id, {
        title: 'Renamed',
        visibility: SiteVisibility.ShareLink,
        basename: 'api',
        proxy: 'company.com/docs',
        adaptiveContent: { enabled: true },
      }),
    );
    expect(updated).toMatchObject({
      title: 'Renamed',
      visibility: SiteVisibility.ShareLink,
      basename: 'api',
      adaptiveContent: { enabled: true },
    });
    expect(updated.proxy).toEqual({ origin: 'company.com/docs', target: `${t.url}/sites/${site.id}/` });
    await approveDomain(t, orgId, 'example.test');
    const agents = await raw(t, 'PATCH', `${base()}/${site.id}`, {
      token: t.adminToken,
      body: { agentsContext: 'excluded', hostname: 'docs.example.test' },
    });
    expect(agents.status).toBe(200);
    expect(agents.body).toMatchObject({ agentsContext: 'excluded', hostname: 'docs.example.test' });
    const noProxy = await ok('updateSiteById', t.client.orgs.updateSiteById(orgId, site.id, { proxy: null }));
    expect(noProxy.proxy).toBeUndefined();
    const published = (await ok('publishSite', t.client.orgs.publishSite(orgId, site.id))) as Site;
    expect(published.published).toBe(true);
    // Admins get the share link of a share-link site; it points at the custom hostname with the server's port.
    const port = new URL(t.url).port;
    expect(published.urls.published).toMatch(
      new RegExp(`^http://docs\\.example\\.test:${port}/\\?share=[A-Za-z0-9_-]{20,}$`),
    );
    const unpublished = await ok('unpublishSite', t.client.orgs.unpublishSite(orgId, site.id));
    expect(unpublished.published).toBe(false);
  });

  it('refuses bad input for every pattern and limit', async () => {
    const site = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Limits' }), 201);
    const patch = (body: unknown) => raw(t, 'PATCH', `${base()}/${site.id}`, { token: t.adminToken, body });
    for (const body of [
      { title: 'x' },
      { title: 'x'.repeat(129) },
      { title: 5 },
      { visibility: 'secret' },
      { basename: '' },
      { basename: 'b'.repeat(101) },
      { agentsContext: 'maybe' },
      { hostname: 'localhost' },
      { hostname: 'Docs.Example.com' },
      { hostname: 'docs.-bad.com' },
      {
        hostname: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(63)}.${'h'.repeat(63)}.com`,
      },
      { proxy: 'not a url' },
      { proxy: 'company.com' },
      { proxy: `company.com/${'a'.repeat(520)}` },
      { adaptiveContent: { enabled: 'yes' } },
      { defaultSiteSpace: 'unknownss' },
      { defaultSiteSection: 'unknownsection' },
      { unknown: true },
      {},
    ]) {
      expectError(await patch(body), 400);
    }
    for (const body of [
      { title: 'y' },
      { type: 'gold' },
      { visibility: 'x' },
      { spaces: ['nope'] },
      { spaces: 'old' },
      { extra: 1 },
    ]) {
      expectError(await raw(t, 'POST', base(), { token: t.adminToken, body }), 400);
    }
    expectError(await patch({ hostname: '127.0.0.1' }), 400);
  });

  it('refuses a hostname another site uses (409)', async () => {
    const a = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Host A' }), 201);
    const b = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Host B' }), 201);
    await approveDomain(t, orgId, 'taken.example.test');
    expect(
      (await raw(t, 'PATCH', `${base()}/${a.id}`, { token: t.adminToken, body: { hostname: 'taken.example.test' } }))
        .status,
    ).toBe(200);
    expectError(
      await raw(t, 'PATCH', `${base()}/${b.id}`, { token: t.adminToken, body: { hostname: 'taken.example.test' } }),
      409,
    );
  });

  it('deletes a site (204, also when already gone)', async () => {
    const site = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Doomed', spaces: [spaceId] }), 201);
    await ok('deleteSiteById', t.client.orgs.deleteSiteById(orgId, site.id), 204);
    await ok('deleteSiteById', t.client.orgs.deleteSiteById(orgId, site.id), 204);
    await fails(t.client.orgs.getSiteById(orgId, site.id), 404);
    // The space itself is untouched.
    await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId));
  });

  it('lets members read, creators manage, and hides sites from other organizations', async () => {
    const site = await ok('createSite', t.client.orgs.createSite(orgId, { title: 'Perms' }), 201);
    const reader = await newMember(t, orgId, 'read');
    const creator = await newMember(t, orgId, 'create');
    const guest = await newMember(t, orgId, null);
    const asReader = t.clientFor(reader.token);
    const seen = await ok('getSiteById', asReader.orgs.getSiteById(orgId, site.id));
    expect(seen.permissions).toMatchObject({ view: true, admin: false, create: false });
    await fails(asReader.orgs.updateSiteById(orgId, site.id, { title: 'Nope' }), 403);
    await fails(asReader.orgs.createSite(orgId, { title: 'Nope' }), 403);
    await fails(asReader.orgs.publishSite(orgId, site.id), 403);
    const asCreator = t.clientFor(creator.token);
    await ok('updateSiteById', asCreator.orgs.updateSiteById(orgId, site.id, { title: 'By creator' }));
    await fails(asCreator.orgs.deleteSiteById(orgId, site.id), 403);
    await fails(asCreator.orgs.getSitePublishingAuthById(orgId, site.id), 403);
    await fails(t.clientFor(guest.token).orgs.getSiteById(orgId, site.id), 404);
    const otherOrg = (await t.client.orgs.createOrganization({ title: 'Elsewhere' })).data.id;
    await fails(t.client.orgs.getSiteById(otherOrg, site.id), 404);
    await fails(asReader.orgs.listSites(otherOrg), 404);
    const auth = await ok('getSitePublishingAuthById', t.client.orgs.getSitePublishingAuthById(orgId, site.id));
    expect(auth.privateKey.length).toBeGreaterThanOrEqual(32);
    const regenerated = await ok(
      'regenerateSitePublishingAuthById',
      t.client.orgs.regenerateSitePublishingAuthById(orgId, site.id),
    );
    expect(regenerated.privateKey).not.toBe(auth.privateKey);
  });

  it('refuses spaces the caller cannot see or from another organization', async () => {
    const otherOrg = (await t.client.orgs.createOrganization({ title: 'Other spaces' })).data.id;
    const foreign = (await t.client.orgs.createSpace(otherOrg, { title: 'Foreign' })).data.id;
    expectError(
      await raw(t, 'POST', base(), { token: t.adminToken, body: { title: 'Bad', spaces: [foreign] } }),
      400,
      /unknown space/,
    );
  });
});
