import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteVisibility } from '@gitbook/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';

/** Sections, section groups and site spaces: every operation, defaults, ordering and its errors. */
let t: TestServer;
let orgId: string;
const spaces: string[] = [];
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Structure Org' })).data.id;
  for (const title of ['Guide', 'API', 'Changelog', 'Guide v2'])
    spaces.push((await t.client.orgs.createSpace(orgId, { title })).data.id);
});
afterAll(async () => {
  await t?.close();
});

const api = () => t.client.orgs;
const path = (siteId: string, rest: string) => `/v1/orgs/${orgId}/sites/${siteId}${rest}`;

async function newSite(spaceIds: string[] = [spaces[0]!]) {
  return (await ok('createSite', api().createSite(orgId, { title: 'Structure', spaces: spaceIds }), 201)).id;
}

describe('site spaces at the root level', () => {
  it('adds, lists (with the default filter), updates, moves and deletes site spaces', async () => {
    const siteId = await newSite();
    const added = await ok('addSpaceToSite', api().addSpaceToSite(orgId, siteId, { spaceId: spaces[1]! }), 201);
    expect(added).toMatchObject({ object: 'site-space', path: 'api', default: false, title: 'API' });
    expect(added.space.id).toBe(spaces[1]);
    const list = await ok('listSiteSpaces', api().listSiteSpaces(orgId, siteId));
    expect(list.items.map((s) => s.path)).toEqual(['guide', 'api']);
    expect(
      (await ok('listSiteSpaces', api().listSiteSpaces(orgId, siteId, { default: true }))).items.map((s) => s.path),
    ).toEqual(['guide']);
    expect(
      (await ok('listSiteSpaces', api().listSiteSpaces(orgId, siteId, { default: false }))).items.map((s) => s.path),
    ).toEqual(['api']);
    const [first, second] = list.items;
    // The default site space is chosen through the site.
    await ok('updateSiteById', api().updateSiteById(orgId, siteId, { defaultSiteSpace: second!.id }));
    expect(
      (await ok('listSiteSpaces', api().listSiteSpaces(orgId, siteId, { default: true }))).items.map((s) => s.id),
    ).toEqual([second!.id]);
    const renamed = await ok(
      'updateSiteSpaceById',
      api().updateSiteSpaceById(orgId, siteId, second!.id, {
        path: 'reference',
        condition: 'visitor.claims.isBeta == true',
      }),
    );
    expect(renamed).toMatchObject({ path: 'reference', condition: 'visitor.claims.isBeta == true' });
    const cleared = await ok(
      'updateSiteSpaceById',
      api().updateSiteSpaceById(orgId, siteId, second!.id, { condition: null }),
    );
    expect(cleared.condition).toBeUndefined();
    const kept = await ok(
      'updateSiteSpaceById',
      api().updateSiteSpaceById(orgId, siteId, second!.id, { spaceId: spaces[2]! }),
    );
    expect(kept).toMatchObject({ path: 'reference' });
    expect(kept.space.id).toBe(spaces[2]);
    const moved = await ok(
      'moveSiteSpace',
      api().moveSiteSpace(orgId, siteId, second!.id, {
        position: { before: { type: 'site-space', siteSpace: first!.id } },
      }),
    );
    expect(moved.id).toBe(second!.id);
    expect((await api().listSiteSpaces(orgId, siteId)).data.items.map((s) => s.id)).toEqual([second!.id, first!.id]);
    await ok('moveSiteSpace', api().moveSiteSpace(orgId, siteId, second!.id, {}));
    expect((await api().listSiteSpaces(orgId, siteId)).data.items.map((s) => s.id)).toEqual([first!.id, second!.id]);
    await ok('deleteSiteSpaceById', api().deleteSiteSpaceById(orgId, siteId, second!.id), 204);
    await ok('deleteSiteSpaceById', api().deleteSiteSpaceById(orgId, siteId, second!.id), 204);
    expect((await api().getSiteById(orgId, siteId)).data.siteSpaces).toBe(1);
  });

  it('refuses invalid site-space input and moves that are invalid or change nothing', async () => {
    const siteId = await newSite([spaces[0]!, spaces[1]!]);
    const [a, b] = (await api().listSiteSpaces(orgId, siteId)).data.items;
    const post = (body: unknown) => raw(t, 'POST', path(siteId, '/site-spaces'), { token: t.adminToken, body });
    expectError(await post({}), 400);
    expectError(await post({ spaceId: 'unknownspace' }), 400, /unknown space/);
    expectError(await post({ spaceId: spaces[0] }), 400, /already published/);
    expectError(await post({ spaceId: spaces[2], sectionId: 'nosuchsection' }), 400, /unknown section/);
    const patch = (body: unknown) =>
      raw(t, 'PATCH', path(siteId, `/site-spaces/${b!.id}`), { token: t.adminToken, body });
    for (const body of [
      {},
      { path: '' },
      { path: 'has space' },
      { path: '/abs' },
      { path: 'p'.repeat(101) },
      { condition: 'x'.repeat(1025) },
      { condition: 'visitor.claims.a ==' },
      { condition: 'process.exit(1)' },
      { spaceId: 'nope' },
    ]) {
      expectError(await patch(body), 400);
    }
    expectError(await patch({ path: a!.path }), 400, /already uses/);
    const move = (id: string, body: unknown) =>
      raw(t, 'POST', path(siteId, `/site-spaces/${id}/move`), { token: t.adminToken, body });
    expectError(await move(b!.id, {}), 400, /not change anything/);
    expectError(
      await move(b!.id, { position: { after: { type: 'site-space', siteSpace: a!.id } } }),
      400,
      /not change anything/,
    );
    expectError(await move(b!.id, { position: { before: { type: 'site-space', siteSpace: b!.id } } }), 400, /itself/);
    expectError(
      await move(b!.id, { position: { before: { type: 'site-space', siteSpace: 'unknownss' } } }),
      400,
      /unknown site space/,
    );
    expectError(await move(b!.id, { position: { before: { type: 'site-section', siteSpace: a!.id } } }), 400);
    expectError(await move('unknownss', { position: { before: { type: 'site-space', siteSpace: a!.id } } }), 404);
  });
});

describe('sections and section groups', () => {
  it('turns a site into sections, manages sections and their defaults, and orders them', async () => {
    const siteId = await newSite([spaces[0]!, spaces[3]!]);
    const api1 = await ok(
      'addSectionToSite',
      api().addSectionToSite(orgId, siteId, { spaceId: spaces[1]!, title: 'API reference', icon: 'code' }),
      201,
    );
    expect(api1).toMatchObject({
      object: 'site-section',
      title: 'API reference',
      path: 'api-reference',
      default: false,
      icon: 'code',
    });
    expect(api1.siteSpaces.map((s) => s.space.id)).toEqual([spaces[1]]);
    let sections = (await ok('listSiteSections', api().listSiteSections(orgId, siteId))).items;
    // The root-level site spaces were gathered into a first, default section named after the site.
    expect(sections.map((s) => [s.title, s.default])).toEqual([
      ['Structure', true],
      ['API reference', false],
    ]);
    const [docs] = sections;
    expect(docs!.siteSpaces.map((s) => s.space.id)).toEqual([spaces[0], spaces[3]]);
    // A space added without a section goes to the default section.
    const added = await ok('addSpaceToSite', api().addSpaceToSite(orgId, siteId, { spaceId: spaces[2]! }), 201);
    expect(added.section).toBe(docs!.id);
    const third = await ok('addSectionToSite', api().addSectionToSite(orgId, siteId, { spaceId: spaces[2]! }), 201);
    expect(third.title).toBe('Changelog');
    const patched = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, docs!.id, {
        title: 'Guides',
        path: 'guides',
        description: 'How-tos',
        condition: 'visitor.claims.plan == "pro"',
        defaultSiteSpace: docs!.siteSpaces[1]!.id,
      }),
    );
    expect(patched).toMatchObject({
      title: 'Guides',
      path: 'guides',
      description: 'How-tos',
      condition: 'visitor.claims.plan == "pro"',
    });
    expect(patched.siteSpaces.find((s) => s.default)?.id).toBe(docs!.siteSpaces[1]!.id);
    const noCondition = await ok(
      'updateSiteSectionById',
      api().updateSiteSectionById(orgId, siteId, docs!.id, { condition: null, icon: null, description: null }),
    );
    expect(noCondition.condition).toBeUndefined();
    expect(noCondition.description).toBeUndefined();
    await ok('updateSiteById', api().updateSiteById(orgId, siteId, { defaultSiteSection: api1.id }));
    sections = (await api().listSiteSections(orgId, siteId)).data.items;
    expect(sections.find((s) => s.default)?.id).toBe(api1.id);
    // On a site with sections, defaultSiteSpace must be in the default section.
    expectError(
      await raw(t, 'PATCH', path(siteId, ''), {
        token: t.adminToken,
        body: { defaultSiteSpace: docs!.siteSpaces[0]!.id },
      }),
      400,
      /default section/,
    );
    await ok('updateSiteById', api().updateSiteById(orgId, siteId, { defaultSiteSpace: api1.siteSpaces[0]!.id }));
    // Moves.
    await ok(
      'moveSiteSection',
      api().moveSiteSection(orgId, siteId, third.id, {
        position: { before: { type: 'site-section', siteSection: docs!.id } },
      }),
    );
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([
      third.id,
      docs!.id,
      api1.id,
    ]);
    await ok(
      'moveSiteSection',
      api().moveSiteSection(orgId, siteId, third.id, {
        position: {
          after: { type: 'site-section', siteSection: docs!.id },
          before: { type: 'site-section', siteSection: api1.id },
        },
      }),
    );
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([
      docs!.id,
      third.id,
      api1.id,
    ]);
    const move = (id: string, body: unknown) =>
      raw(t, 'POST', path(siteId, `/sections/${id}/move`), { token: t.adminToken, body });
    expectError(await move(api1.id, {}), 400, /not change anything/);
    expectError(
      await move(third.id, { position: { after: { type: 'site-section', siteSection: docs!.id } } }),
      400,
      /not change anything/,
    );
    expectError(
      await move(third.id, {
        position: {
          after: { type: 'site-section', siteSection: api1.id },
          before: { type: 'site-section', siteSection: docs!.id },
        },
      }),
      400,
      /adjacent/,
    );
    expectError(
      await move(third.id, { position: { before: { type: 'site-section', siteSection: 'nosection' } } }),
      400,
      /unknown section/,
    );
    expectError(
      await move('nosection', { position: { before: { type: 'site-section', siteSection: docs!.id } } }),
      404,
    );
    // Invalid section input.
    const post = (body: unknown) => raw(t, 'POST', path(siteId, '/sections'), { token: t.adminToken, body });
    for (const body of [
      {},
      { spaceId: 'unknownspace' },
      { spaceId: spaces[0], title: 'x' },
      { spaceId: spaces[0], icon: 'Bad Icon' },
      { spaceId: spaces[0], icon: 'i'.repeat(51) },
      { spaceId: spaces[0], siteSectionGroupId: 'nogroup' },
    ]) {
      expectError(await post(body), 400);
    }
    const patch = (body: unknown) =>
      raw(t, 'PATCH', path(siteId, `/sections/${third.id}`), { token: t.adminToken, body });
    for (const body of [
      {},
      { title: 'x' },
      { title: 't'.repeat(129) },
      { path: '' },
      { path: 'a/b' },
      { path: 'guides' },
      { description: 'd'.repeat(257) },
      { defaultSiteSpace: docs!.siteSpaces[0]!.id },
      { condition: '1 +' },
      { condition: 'globalThis' },
    ]) {
      expectError(await patch(body), 400);
    }
    await ok('deleteSiteSectionById', api().deleteSiteSectionById(orgId, siteId, third.id), 204);
    await ok('deleteSiteSectionById', api().deleteSiteSectionById(orgId, siteId, third.id), 204);
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([docs!.id, api1.id]);
  });

  it('groups sections, adds and removes members, moves groups and deletes them', async () => {
    const siteId = await newSite();
    const s1 = await ok('addSectionToSite', api().addSectionToSite(orgId, siteId, { spaceId: spaces[1]! }), 201);
    const s2 = await ok('addSectionToSite', api().addSectionToSite(orgId, siteId, { spaceId: spaces[2]! }), 201);
    const group = await ok(
      'addSectionGroupToSite',
      api().addSectionGroupToSite(orgId, siteId, { title: 'Developers', icon: 'code', sections: [s1.id] }),
      201,
    );
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Developers', icon: 'code' });
    expect(group.sections.map((s) => s.id)).toEqual([s1.id]);
    const added = await raw(t, 'POST', path(siteId, `/section-groups/${group.id}/sections`), {
      token: t.adminToken,
      body: { sectionId: s2.id },
    });
    expect(added.status).toBe(201);
    expect((added.body as { sections: { id: string }[] }).sections.map((s) => s.id)).toEqual([s1.id, s2.id]);
    expectError(
      await raw(t, 'POST', path(siteId, `/section-groups/${group.id}/sections`), {
        token: t.adminToken,
        body: { sectionId: s2.id },
      }),
      400,
      /already/,
    );
    expectError(
      await raw(t, 'POST', path(siteId, `/section-groups/${group.id}/sections`), {
        token: t.adminToken,
        body: { sectionId: 'nosection' },
      }),
      400,
      /unknown section/,
    );
    // Moving a section inside its group.
    await ok(
      'moveSiteSection',
      api().moveSiteSection(orgId, siteId, s2.id, {
        position: { before: { type: 'site-section', siteSection: s1.id } },
      }),
    );
    let groups = (await ok('listSiteSectionGroups', api().listSiteSectionGroups(orgId, siteId))).items;
    expect(groups[0]!.sections.map((s) => s.id)).toEqual([s2.id, s1.id]);
    expect(groups[0]!.sections[0]!.sectionGroup).toBe(group.id);
    const renamed = await ok(
      'updateSiteSectionGroupById',
      api().updateSiteSectionGroupById(orgId, siteId, group.id, { title: 'Devs', icon: null }),
    );
    expect(renamed.title).toBe('Devs');
    expect(renamed.icon).toBeUndefined();
    for (const body of [{}, { title: '' }, { title: 't'.repeat(101) }, { icon: 'i'.repeat(51) }]) {
      expectError(
        await raw(t, 'PATCH', path(siteId, `/section-groups/${group.id}`), { token: t.adminToken, body }),
        400,
      );
    }
    for (const body of [{}, { title: '' }, { title: 'G', sections: ['nosection'] }]) {
      expectError(await raw(t, 'POST', path(siteId, '/section-groups'), { token: t.adminToken, body }), 400);
    }
    // The group moves among the top-level items (the first section is top-level).
    const top = (await api().listSiteSections(orgId, siteId)).data.items.find((s) => !s.sectionGroup)!;
    await ok(
      'moveSiteSectionGroup',
      api().moveSiteSectionGroup(orgId, siteId, group.id, {
        position: { before: { type: 'site-section', id: top.id } },
      }),
    );
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([s2.id, s1.id, top.id]);
    expectError(
      await raw(t, 'POST', path(siteId, `/section-groups/${group.id}/move`), {
        token: t.adminToken,
        body: { position: { before: { type: 'site-section', id: top.id } } },
      }),
      400,
      /not change anything/,
    );
    expectError(
      await raw(t, 'POST', path(siteId, `/section-groups/${group.id}/move`), {
        token: t.adminToken,
        body: { position: { before: { type: 'site-section', id: s1.id } } },
      }),
      400,
      /not a sibling/,
    );
    // Removing a section from the group keeps it, after the group.
    expect(
      (await raw(t, 'DELETE', path(siteId, `/section-groups/${group.id}/sections/${s2.id}`), { token: t.adminToken }))
        .status,
    ).toBe(204);
    expect(
      (await raw(t, 'DELETE', path(siteId, `/section-groups/${group.id}/sections/${s2.id}`), { token: t.adminToken }))
        .status,
    ).toBe(204);
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([s1.id, s2.id, top.id]);
    await ok('deleteSiteSectionGroupById', api().deleteSiteSectionGroupById(orgId, siteId, group.id), 204);
    await ok('deleteSiteSectionGroupById', api().deleteSiteSectionGroupById(orgId, siteId, group.id), 204);
    groups = (await api().listSiteSectionGroups(orgId, siteId)).data.items;
    expect(groups).toEqual([]);
    expect((await api().listSiteSections(orgId, siteId)).data.items.map((s) => s.id)).toEqual([s1.id, s2.id, top.id]);
  });

  it('lets readers list the structure but not change it', async () => {
    const siteId = await newSite();
    const reader = await newMember(t, orgId, 'read');
    const as = t.clientFor(reader.token).orgs;
    await ok('listSiteSections', as.listSiteSections(orgId, siteId));
    await ok('listSiteSpaces', as.listSiteSpaces(orgId, siteId));
    await ok('listSiteSectionGroups', as.listSiteSectionGroups(orgId, siteId));
    await fails(as.addSpaceToSite(orgId, siteId, { spaceId: spaces[1]! }), 403);
    await fails(as.addSectionToSite(orgId, siteId, { spaceId: spaces[1]! }), 403);
    await fails(as.addSectionGroupToSite(orgId, siteId, { title: 'G' }), 403);
  });
});

describe('published profile and share keys', () => {
  it('describes the published site; share-link URLs carry the key only for admins or with ?shareKey', async () => {
    const siteId = await newSite([spaces[0]!, spaces[1]!]);
    await fails(api().getPublishedContentSite(orgId, siteId), 404);
    await ok('updateSiteById', api().updateSiteById(orgId, siteId, { visibility: SiteVisibility.ShareLink }));
    await ok('publishSite', api().publishSite(orgId, siteId));
    const profile = await ok('getPublishedContentSite', api().getPublishedContentSite(orgId, siteId));
    expect(profile.structure.type).toBe('siteSpaces');
    const adminUrl = profile.site.urls.published!;
    const key = new URL(adminUrl).searchParams.get('share')!;
    expect(key).toBeTruthy();
    const reader = await newMember(t, orgId, 'read');
    const as = t.clientFor(reader.token).orgs;
    const plain = await ok('listSiteSpaces', as.listSiteSpaces(orgId, siteId));
    expect(plain.items[0]!.urls.published).toBe(`${t.url}/sites/${siteId}/`);
    expect(plain.items[1]!.urls.published).toBe(`${t.url}/sites/${siteId}/api/`);
    const keyed = await ok('listSiteSpaces', as.listSiteSpaces(orgId, siteId, { shareKey: key }));
    expect(keyed.items[1]!.urls.published).toBe(`${t.url}/sites/${siteId}/api/?share=${key}`);
    const wrong = await ok('listSiteSpaces', as.listSiteSpaces(orgId, siteId, { shareKey: 'wrong' }));
    expect(wrong.items[1]!.urls.published).toBe(`${t.url}/sites/${siteId}/api/`);
    await ok('addSectionToSite', api().addSectionToSite(orgId, siteId, { spaceId: spaces[2]! }), 201);
    const withSections = await ok(
      'getPublishedContentSite',
      as.getPublishedContentSite(orgId, siteId, { shareKey: key }),
    );
    expect(withSections.structure.type).toBe('sections');
    const keyedSections = await ok('listSiteSections', as.listSiteSections(orgId, siteId, { shareKey: key }));
    expect(keyedSections.items[1]!.urls.published).toBe(`${t.url}/sites/${siteId}/changelog/?share=${key}`);
  });
});
