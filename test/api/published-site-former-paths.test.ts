import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { changeSlug, movePageKeepingPath } from '../../shared/doc/page-meta';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Old addresses of a published page: after a slug change or a move, the
 * page's former path (and its sub-pages under it) answer 301 to where the
 * page lives now, so links from elsewhere and search engines follow it.
 * Paths that never existed stay 404.
 */
let t: TestServer;
let siteId: string;

const get = async (path: string) => {
  const res = await fetch(`${t.url}/sites/${siteId}/${path}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') };
};

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Moves Org' })).data.id;
  const space = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(space), (doc) => {
    const c = new ContentDoc(doc);
    c.createPage({ title: 'Home', markdown: 'Start here.\n' });
    const install = c.createPage({ title: 'Install', slug: 'install', markdown: 'Install it.\n' });
    c.createPage({ title: 'Linux', slug: 'linux', parent: install, markdown: 'On Linux.\n' });
    const guides = c.createPage({ title: 'Guides', slug: 'guides', markdown: 'All guides.\n' });
    const faq = c.createPage({ title: 'FAQ', slug: 'faq', markdown: 'Questions.\n' });
    changeSlug(c, install, 'setup');
    movePageKeepingPath(c, faq, { parent: guides });
  });
  await t.server.ctx.snapshots.revise(space);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Docs', spaces: [space] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

describe('former page paths on a published site', () => {
  it('redirects the path of a re-slugged page, and of its sub-pages, with 301', async () => {
    expect((await get('setup')).status).toBe(200);
    expect(await get('install')).toEqual({ status: 301, location: `/sites/${siteId}/setup` });
    expect(await get('install/linux')).toEqual({ status: 301, location: `/sites/${siteId}/setup/linux` });
  });

  it('redirects the path a moved page had', async () => {
    expect((await get('guides/faq')).status).toBe(200);
    expect(await get('faq')).toEqual({ status: 301, location: `/sites/${siteId}/guides/faq` });
  });

  it('still answers 404 for a path no page ever had', async () => {
    expect((await get('never-was')).status).toBe(404);
    expect((await get('install/windows')).status).toBe(404);
  });
});
