import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * sitemap.xml and llms*.txt are kept as bytes per site state and visitor
 * view, like pages: asked again they answer the same, and a new revision of a
 * published space or a change of the site shows at once.
 */
let t: TestServer;
let orgId: string;
let siteId: string;
let spaceId: string;

const get = async (path: string) => (await fetch(`${t.url}/sites/${siteId}/${path}`)).text();

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Cache Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    new ContentDoc(doc).createPage({ title: 'Home', markdown: 'The first kestrel text.\n' });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Cached Docs', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

describe('machine-readable output cache', () => {
  it('answers the same bytes again, and shows a new revision and a new site title at once', async () => {
    const before = { sitemap: await get('sitemap.xml'), llms: await get('llms.txt'), full: await get('llms-full.txt') };
    expect(before.full).toContain('kestrel');
    expect(await get('llms-full.txt')).toBe(before.full);
    expect(await get('sitemap.xml')).toBe(before.sitemap);

    await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      new ContentDoc(doc).createPage({ title: 'Pelicans', slug: 'pelicans', markdown: 'All about the pelican.\n' });
    });
    await t.server.ctx.snapshots.revise(spaceId);
    expect(await get('llms-full.txt')).toContain('pelican');
    expect(await get('sitemap.xml')).toContain(`/sites/${siteId}/pelicans</loc>`);
    expect(await get('llms.txt')).toContain('[Pelicans]');

    await t.client.orgs.updateSiteById(orgId, siteId, { title: 'Renamed Docs' });
    expect(await get('llms.txt')).toMatch(/^# Renamed Docs\n/);
  });
});
