import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalizedString128, LocalizedString256 } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../helpers/server';
import { expectError, ok, raw } from '../helpers/api';

/**
 * The client types a LocalizedString as a Record of every language, though the
 * spec's object holds "overrides for non-default languages only": these say so.
 */
const title = (l: Partial<LocalizedString128>) => l as LocalizedString128;
const description = (l: Partial<LocalizedString256>) => l as LocalizedString256;

/**
 * GitBook's current SiteSection fields over the official client: draft,
 * icon, description, localized title and description, and moving a section
 * into and out of a group with `siteSectionGroupId`; a draft section is not
 * on the published site.
 */
let t: TestServer;
let orgId: string;
let siteId: string;
let guideSection: string;
let betaSection: string;

async function space(title: string, markdown: string) {
  const id = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(id), (doc) => {
    new ContentDoc(doc).createPage({ title: `${title} home`, markdown });
  });
  await t.server.ctx.snapshots.revise(id);
  return id;
}

async function get(path: string) {
  const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

const api = () => t.client.orgs;
const sectionPath = (id: string) => `/v1/orgs/${orgId}/sites/${siteId}/sections/${id}`;
const patch = (id: string, body: unknown) => raw(t, 'PATCH', sectionPath(id), { token: TEST_ADMIN_TOKEN, body });

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await api().createOrganization({ title: 'Section Fields Org' })).data.id;
  const guide = await space('Guide', 'The guide talks about otters.\n');
  const beta = await space('Beta', 'The beta talks about narwhals.\n');
  siteId = (await api().createSite(orgId, { title: 'Fields Site', spaces: [guide] })).data.id;
  // The first section gathers the root site spaces into a default section named after the site.
  betaSection = (
    await ok('addSectionToSite', api().addSectionToSite(orgId, siteId, { spaceId: beta, title: 'Beta' }), 201)
  ).id;
  const sections = await ok('listSiteSections', api().listSiteSections(orgId, siteId));
  guideSection = sections.items.find((s) => s.id !== betaSection)!.id;
  await api().publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

describe('updateSiteSectionById with GitBook’s current fields', () => {
  it('stores and presents icon, description and localized title and description', async () => {
    const updated = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, {
        icon: 'flask',
        description: 'Features before they ship',
        localizedTitle: title({ fr: 'Bêta', de: 'Beta-Version' }),
        localizedDescription: description({ fr: 'Avant la sortie' }),
      }),
    );
    expect(updated).toMatchObject({
      icon: 'flask',
      description: 'Features before they ship',
      localizedTitle: { fr: 'Bêta', de: 'Beta-Version' },
      localizedDescription: { fr: 'Avant la sortie' },
      draft: false,
    });
    // Omitted fields keep their value; the list presents the same object.
    const renamed = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { title: 'Beta program' }),
    );
    expect(renamed).toMatchObject({ title: 'Beta program', icon: 'flask', localizedTitle: { fr: 'Bêta' } });
    const listed = (await ok('listSiteSections', api().listSiteSections(orgId, siteId))).items;
    expect(listed.find((s) => s.id === betaSection)).toEqual(renamed);
    // null clears icon and description; {} removes every localized override.
    const cleared = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, {
        icon: null,
        description: null,
        localizedTitle: title({}),
        localizedDescription: description({}),
      }),
    );
    for (const field of ['icon', 'description', 'localizedTitle', 'localizedDescription'])
      expect(cleared, field).not.toHaveProperty(field);
  });

  it('refuses wrong values with a 400 in GitBook’s error shape', async () => {
    expectError(await patch(betaSection, { draft: 'yes' }), 400);
    expectError(await patch(betaSection, { localizedTitle: ['fr', 'Bêta'] }), 400);
    expectError(await patch(betaSection, { localizedTitle: { klingon: 'Beta' } }), 400, /localizedTitle/);
    expectError(await patch(betaSection, { localizedTitle: { fr: 'x'.repeat(129) } }), 400);
    expectError(await patch(betaSection, { localizedDescription: { fr: 'x'.repeat(257) } }), 400);
    expectError(await patch(betaSection, { description: 'x'.repeat(257) }), 400);
    expectError(await patch(betaSection, { icon: 'x'.repeat(51) }), 400);
    expectError(await patch(betaSection, { siteSectionGroupId: 42 }), 400);
    expectError(
      await patch(betaSection, { siteSectionGroupId: 'nosuchgroup' }),
      400,
      /siteSectionGroupId: unknown section group/,
    );
    // Nothing of a refused update was written.
    const section = (await api().listSiteSections(orgId, siteId)).data.items.find((s) => s.id === betaSection)!;
    expect(section.draft).toBe(false);
    expect(section.sectionGroup).toBeUndefined();
  });

  it('moves a section into a group and back to the top level with siteSectionGroupId', async () => {
    const group = await ok(
      'addSectionGroupToSite',
      api().addSectionGroupToSite(orgId, siteId, { title: 'Programs' }),
      201,
    );
    const moved = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { siteSectionGroupId: group.id }),
    );
    expect(moved.sectionGroup).toBe(group.id);
    const inGroup = await ok('listSiteSectionGroups', api().listSiteSectionGroups(orgId, siteId));
    expect(inGroup.items.find((g) => g.id === group.id)!.sections.map((s) => s.id)).toEqual([betaSection]);
    // Sending the group it is already in changes nothing.
    const same = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { siteSectionGroupId: group.id }),
    );
    expect(same.sectionGroup).toBe(group.id);

    const out = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { siteSectionGroupId: null }),
    );
    expect(out).not.toHaveProperty('sectionGroup');
    const groups = await ok('listSiteSectionGroups', api().listSiteSectionGroups(orgId, siteId));
    expect(groups.items.find((g) => g.id === group.id)!.sections).toEqual([]);
    // Back at the top level, at its end.
    const order = (await ok('listSiteSections', api().listSiteSections(orgId, siteId))).items.map((s) => s.id);
    expect(order).toEqual([guideSection, betaSection]);
    await ok('deleteSiteSectionGroupById', api().deleteSiteSectionGroupById(orgId, siteId, group.id), 204);
  });

  it('creates a section as a draft with addSectionToSite', async () => {
    const extra = await space('Extra', 'Extra content.\n');
    const added = await ok(
      'addSectionToSite',
      api().addSectionToSite(orgId, siteId, { spaceId: extra, title: 'Extra', draft: true }),
      201,
    );
    expect(added.draft).toBe(true);
    expect(added.urls).not.toHaveProperty('published');
    await ok('deleteSiteSectionById', api().deleteSiteSectionById(orgId, siteId, added.id), 204);
  });
});

describe('a draft section on the published site', () => {
  it('is hidden from readers until it is made live again', async () => {
    const live = await ok('listSiteSections', api().listSiteSections(orgId, siteId));
    const betaUrl = new URL(live.items.find((s) => s.id === betaSection)!.urls.published!);
    expect((await get(betaUrl.pathname)).body).toContain('narwhals');
    const home = await get(`/sites/${siteId}/`);
    expect(home.body).toContain('Beta program');

    const draft = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { draft: true }),
    );
    expect(draft.draft).toBe(true);
    // Neither the section nor its site spaces claim a published URL while draft.
    expect(draft.urls).not.toHaveProperty('published');
    for (const siteSpace of draft.siteSpaces) expect(siteSpace.urls).not.toHaveProperty('published');
    expect((await get(betaUrl.pathname)).status).toBe(404);
    const homeNow = await get(`/sites/${siteId}/`);
    expect(homeNow.status).toBe(200);
    expect(homeNow.body).not.toContain('Beta program');
    expect((await get(`/sites/${siteId}/llms-full.txt`)).body).not.toContain('narwhals');

    const back = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, betaSection, { draft: false }),
    );
    expect(back.urls.published).toBe(betaUrl.toString());
    expect((await get(betaUrl.pathname)).body).toContain('narwhals');
  });
});
