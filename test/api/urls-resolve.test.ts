import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { parseAppLink } from '../../renderer/src/routes';
import { startTestServer, type TestServer } from '../helpers/server';
import { fails, newUser, ok } from '../helpers/api';
import { newMember } from '../helpers/members';

/**
 * "Every `urls.*` an object carries resolves": a realistic fixture made
 * through the official client (organization, collection, space with pages, a
 * change request, a published site with a section and site spaces, a comment,
 * an invite), then a crawl: every `urls` object found in a GET response is
 * collected, API URLs are fetched with the token (and their own `urls` crawled
 * in turn), `/app/` URLs must serve the web app (or the 503 "not built" answer,
 * never a 404) and parse to a real screen of the app's router, published URLs
 * must answer 200.
 */
let t: TestServer;
type FixtureId =
  | 'org'
  | 'collection'
  | 'space'
  | 'other'
  | 'admin'
  | 'intro'
  | 'guides'
  | 'child'
  | 'api'
  | 'cr'
  | 'comment'
  | 'site'
  | 'section'
  | 'invite';
const ids = {} as Record<FixtureId, string>;

beforeAll(async () => {
  t = await startTestServer();
  const c = t.client;
  ids.org = (await ok('createOrganization', c.orgs.createOrganization({ title: 'Urls Org' }), 201)).id;
  ids.collection = (await ok('createCollection', c.orgs.createCollection(ids.org, { title: 'Handbooks' }), 201)).id;
  ids.space = (await ok('createSpace', c.orgs.createSpace(ids.org, { title: 'Guide' }), 201)).id;
  await c.spaces.moveSpace(ids.space, { parent: ids.collection });
  ids.other = (await ok('createSpace', c.orgs.createSpace(ids.org, { title: 'Reference' }), 201)).id;
  await t.server.ctx.hub.change(spaceContentDoc(ids.space), (doc) => {
    const content = new ContentDoc(doc);
    ids.intro = content.createPage({
      title: 'Introduction',
      markdown: '# Welcome\n\nHello.\n\n## Install\n\nRun it.\n',
    });
    ids.guides = content.createPage({ title: 'Guides', slug: 'guides', markdown: 'Guides.\n' });
    ids.child = content.createPage({ title: 'First', parent: ids.guides, slug: 'first', markdown: 'One.\n' });
  });
  await t.server.ctx.snapshots.revise(ids.space);
  await t.server.ctx.hub.change(spaceContentDoc(ids.other), (doc) => {
    ids.api = new ContentDoc(doc).createPage({ title: 'API', slug: 'api', markdown: 'Calls.\n' });
  });
  await t.server.ctx.snapshots.revise(ids.other);
  ids.cr = (await ok('createChangeRequest', c.spaces.createChangeRequest(ids.space, { subject: 'Edit' }), 201)).id;
  ids.comment = (
    await ok(
      'postCommentInSpace',
      c.spaces.postCommentInSpace(ids.space, { body: { markdown: 'Looks good' }, page: ids.intro }),
    )
  ).id;
  ids.site = (
    await ok('createSite', c.orgs.createSite(ids.org, { title: 'Docs', spaces: [ids.space, ids.other] }), 201)
  ).id;
  ids.admin = (await ok('createSpace', c.orgs.createSpace(ids.org, { title: 'Admin' }), 201)).id;
  await t.server.ctx.hub.change(spaceContentDoc(ids.admin), (doc) => {
    new ContentDoc(doc).createPage({ title: 'Operate', slug: 'operate', markdown: 'Run.\n' });
  });
  await t.server.ctx.snapshots.revise(ids.admin);
  ids.section = (
    await ok(
      'addSectionToSite',
      c.orgs.addSectionToSite(ids.org, ids.site, { spaceId: ids.admin, title: 'Admin guide' }),
      201,
    )
  ).id;
  await c.orgs.publishSite(ids.org, ids.site);
  ids.invite = (
    await ok('createOrganizationInvite', c.orgs.createOrganizationInvite(ids.org, { role: 'read' as never }), 201)
  ).id;
});
afterAll(async () => {
  await t?.close();
});

/** Every string under a `urls` key anywhere in `value`. */
function urlsIn(value: unknown, out: Set<string>, underUrls = false): void {
  if (typeof value === 'string') {
    if (underUrls) out.add(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) urlsIn(item, out, underUrls);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) urlsIn(item, out, underUrls || key === 'urls');
  }
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${t.adminToken}` } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the failure message
  }
  return { status: res.status, body };
}

/** The GET endpoints the crawl starts from: every list and read a client of the fixture would call. */
function seeds(): string[] {
  const { org, collection, space, cr, site } = ids;
  return [
    '/user',
    '/orgs',
    `/orgs/${org}`,
    `/orgs/${org}/members`,
    `/orgs/${org}/spaces`,
    `/orgs/${org}/collections`,
    `/orgs/${org}/teams`,
    `/orgs/${org}/sites`,
    `/orgs/${org}/link-invites`,
    `/orgs/${org}/search?query=hello`,
    `/collections/${collection}`,
    `/collections/${collection}/spaces`,
    `/spaces/${space}`,
    `/spaces/${space}/content`,
    `/spaces/${space}/content/pages`,
    `/spaces/${space}/content/page/${ids.intro}`,
    `/spaces/${space}/content/path/guides/first`,
    `/spaces/${space}/revisions`,
    `/spaces/${space}/search?query=install`,
    `/spaces/${space}/comments`,
    `/spaces/${space}/comments/${ids.comment}`,
    `/spaces/${space}/change-requests`,
    `/spaces/${space}/change-requests/${cr}`,
    `/spaces/${space}/change-requests/${cr}/content`,
    `/spaces/${space}/change-requests/${cr}/content/pages`,
    `/orgs/${org}/sites/${site}`,
    `/orgs/${org}/sites/${site}/published`,
    `/orgs/${org}/sites/${site}/sections`,
    `/orgs/${org}/sites/${site}/site-spaces`,
    `/orgs/${org}/sites/${site}/section-groups`,
    `/spaces/${space}/comments/${ids.comment}/replies`,
  ];
}

describe('every urls.* resolves', () => {
  it('crawls the API from a realistic fixture and every URL answers', async () => {
    const api = `${t.url}/v1`;
    const found = new Map<string, string>(); // url -> where it was seen
    const visited = new Set<string>();
    const queue = seeds().map((p) => ({ url: `${api}${p}`, from: 'seed' }));
    // The URLs an updateChangeRequestContent answer carries (created and updated pages, inserted files).
    const batch = await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        ids.space,
        ids.cr,
        {
          changes: [
            {
              operation: 'insert_files',
              files: [{ ref: 'logo', name: 'logo.txt', contentType: 'text/plain', base64: 'aGk=' }],
            },
            { operation: 'insert_page', title: 'New', document: { markdown: 'See [logo](logo).\n' } },
            { operation: 'update_page', page: ids.intro, title: 'Intro' },
          ],
        },
        { compat: false },
      ),
    );
    const fromBatch = new Set<string>();
    urlsIn(batch, fromBatch);
    expect(fromBatch.size).toBeGreaterThanOrEqual(2);
    for (const u of fromBatch) queue.unshift({ url: u, from: 'updateChangeRequestContent' });
    const failures: string[] = [];
    while (queue.length > 0 && visited.size < 400) {
      const { url, from } = queue.shift()!;
      const key =
        url.replace(/[?#].*$/, '') + (url.includes('?') && from === 'seed' ? url.slice(url.indexOf('?')) : '');
      if (visited.has(key)) continue;
      visited.add(key);
      const res = await getJson(url);
      if (res.status !== 200) {
        failures.push(`${url} (from ${from}) -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        continue;
      }
      const urls = new Set<string>();
      urlsIn(res.body, urls);
      for (const u of urls) {
        if (!found.has(u)) found.set(u, url);
        if (u.startsWith(`${api}/`)) queue.push({ url: u, from: url });
      }
    }
    // The non-API URLs: the web app and published sites.
    const kinds = { app: 0, published: 0, other: 0 };
    for (const [u, from] of found) {
      if (u.startsWith(`${api}/`)) continue;
      if (!u.startsWith(t.url)) {
        failures.push(`${u} (from ${from}) is not on this server`);
        continue;
      }
      const path = new URL(u).pathname;
      const res = await fetch(u, { redirect: 'manual' });
      const text = await res.text();
      if (path === '/app' || path.startsWith('/app/')) {
        kinds.app++;
        const served = res.status === 200 ? /<html/i.test(text) : res.status === 503;
        if (!served) failures.push(`${u} (from ${from}) -> ${res.status}: not the web app`);
        const link = parseAppLink(u);
        const screen = link?.route.view;
        const isHome = path.replace(/\/+$/, '') === '/app';
        if (!link || (screen === 'picker' && !isHome)) failures.push(`${u} (from ${from}) opens no screen of the app`);
      } else {
        if (path.startsWith('/sites/')) kinds.published++;
        else kinds.other++;
        if (res.status !== 200) failures.push(`${u} (from ${from}) -> ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    // The crawl must really have reached the kinds of URL it claims to check.
    expect(kinds.app).toBeGreaterThan(5);
    expect(kinds.published).toBeGreaterThan(0);
    expect(visited.size).toBeGreaterThan(seeds().length);
  });

  it('the join link an invite email carries opens the join screen', async () => {
    // Invites carry no `urls` (as in GitBook); the e-mailed link is built by invites/email.ts joinUrl.
    const link = `${t.url}/app/join/${ids.org}/${ids.invite}`;
    const res = await fetch(link);
    expect([200, 503]).toContain(res.status);
    expect(parseAppLink(link)?.route).toEqual({ view: 'join', orgId: ids.org, inviteId: ids.invite });
  });

  it("a User's urls.location (getUserById) answers for people who share an organization, and only them", async () => {
    const reader = await newMember(t, ids.org, 'read', 'Reader');
    const stranger = await newUser(t, 'Stranger');
    const seen = await ok('getUserById', t.clientFor(reader.token).users.getUserById(reader.id));
    expect(seen).toMatchObject({ id: reader.id, email: reader.email });
    const admin = (await t.client.user.getAuthenticatedUser()).data;
    const byColleague = await ok('getUserById', t.clientFor(reader.token).users.getUserById(admin.id));
    expect(byColleague.id).toBe(admin.id);
    expect(byColleague.email).toBeUndefined();
    await fails(t.clientFor(stranger.token).users.getUserById(reader.id), 404);
    await fails(t.client.users.getUserById('no-such-user'), 404);
  });
});
