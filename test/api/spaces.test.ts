import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { asRole, expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';

let t: TestServer;
let orgId: string;
let otherOrgId: string;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Spaces Org' })).data.id;
  otherOrgId = (await t.client.orgs.createOrganization({ title: 'Elsewhere' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const createSpace = (title: string, extra: Record<string, unknown> = {}) =>
  ok('createSpace', t.client.orgs.createSpace(orgId, { title, ...extra }), 201);

describe('spaces', () => {
  it('creates, reads, updates and lists spaces', async () => {
    const space = await createSpace('Handbook', { emoji: '📘', language: 'fr' });
    expect(space).toMatchObject({
      title: 'Handbook',
      emoji: '📘',
      language: 'fr',
      organization: orgId,
      visibility: 'private',
      editMode: 'live',
    });
    expect(space.revision).toMatch(/^[a-zA-Z0-9]+$/);
    expect(space.permissions).toMatchObject({ admin: true, edit: true });
    const got = await ok('getSpaceById', t.client.spaces.getSpaceById(space.id));
    expect(got.id).toBe(space.id);
    const locked = await ok(
      'updateSpaceById',
      t.client.spaces.updateSpaceById(space.id, {
        editMode: 'locked' as never,
        title: 'Handbook v2',
        defaultLevel: asRole('comment'),
      }),
    );
    expect(locked).toMatchObject({ editMode: 'locked', title: 'Handbook v2', defaultLevel: 'comment' });
    expect(locked.permissions.edit).toBe(false);
    const list = await ok('listSpacesInOrganizationById', t.client.orgs.listSpacesInOrganizationById(orgId));
    expect(list.items.map((s) => s.id)).toContain(space.id);
  });

  it('lists the spaces of a collection in sidebar order and moves between positions', async () => {
    const c = (await t.client.orgs.createCollection(orgId, { title: 'Docs' })).data;
    const a = await createSpace('A', { parent: c.id });
    const b = await createSpace('B', { parent: c.id });
    expect(a.parent).toBe(c.id);
    let inC = await ok('listSpacesInCollectionById', t.client.collections.listSpacesInCollectionById(c.id));
    expect(inC.items.map((s) => s.title)).toEqual(['A', 'B']);
    await ok(
      'moveSpace',
      t.client.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: a.id } } as never }),
    );
    inC = await ok('listSpacesInCollectionById', t.client.collections.listSpacesInCollectionById(c.id));
    expect(inC.items.map((s) => s.title)).toEqual(['B', 'A']);
    const out = await ok('moveSpace', t.client.spaces.moveSpace(a.id, { parent: null }));
    expect(out.parent).toBeUndefined();
    expectError(
      await raw(t, 'POST', `/v1/spaces/${b.id}/move`, { token: t.adminToken, body: { parent: c.id } }),
      400,
      /not change/,
    );
    expectError(
      await raw(t, 'POST', `/v1/spaces/${b.id}/move`, {
        token: t.adminToken,
        body: { position: { after: { type: 'space', space: a.id } } },
      }),
      400,
      /Invalid position/,
    );
    expectError(
      await raw(t, 'POST', `/v1/spaces/${b.id}/move`, { token: t.adminToken, body: { parent: 'unknownCollection' } }),
      400,
    );
  });

  it('soft-deletes, restores within 7 days, and purges after', async () => {
    const space = await createSpace('Temporary');
    expect((await t.client.spaces.deleteSpaceById(space.id)).status).toBe(204);
    const deleted = await ok('getSpaceById', t.client.spaces.getSpaceById(space.id));
    expect(deleted.deletedAt).toBeDefined();
    const list = (await t.client.orgs.listSpacesInOrganizationById(orgId)).data;
    expect(list.items.map((s) => s.id)).not.toContain(space.id);
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${space.id}`, { token: t.adminToken, body: { title: 'x' } }),
      400,
      /deleted/,
    );
    t.clock.advance(6 * DAY);
    const restored = await ok('restoreSpace', t.client.spaces.restoreSpace(space.id));
    expect(restored.deletedAt).toBeUndefined();
    expectError(await raw(t, 'POST', `/v1/spaces/${space.id}/restore`, { token: t.adminToken }), 400, /not deleted/);

    await t.client.spaces.deleteSpaceById(space.id);
    t.clock.advance(8 * DAY);
    expectError(
      await raw(t, 'POST', `/v1/spaces/${space.id}/restore`, { token: t.adminToken }),
      400,
      /more than 7 days/,
    );
    await t.server.jobs.runAll();
    await fails(t.client.spaces.getSpaceById(space.id), 404);
    expect((await t.client.spaces.deleteSpaceById(space.id)).status).toBe(204);
  });

  it('duplicates and transfers spaces', async () => {
    const space = await createSpace('Original', { emoji: '🚀' });
    const copy = await ok('duplicateSpace', t.client.spaces.duplicateSpace(space.id), 201);
    expect(copy.id).not.toBe(space.id);
    expect(copy).toMatchObject({ title: 'Original', emoji: '🚀', organization: orgId });
    const res = await raw(t, 'POST', `/v1/spaces/${copy.id}/transfer`, {
      token: t.adminToken,
      body: { organization: otherOrgId },
    });
    expect(res.status).toBe(200);
    expect((res.body as { organization: string }).organization).toBe(otherOrgId);
    expectError(
      await raw(t, 'POST', `/v1/spaces/${copy.id}/transfer`, {
        token: t.adminToken,
        body: { organization: otherOrgId },
      }),
      400,
      /not change/,
    );
    expectError(await raw(t, 'POST', `/v1/spaces/${copy.id}/transfer`, { token: t.adminToken, body: {} }), 400);
    expectError(
      await raw(t, 'POST', `/v1/spaces/${copy.id}/transfer`, {
        token: t.adminToken,
        body: { organization: 'noSuchOrg' },
      }),
      404,
    );
  });

  it('applies the role lattice: read < comment < edit < review < create < admin', async () => {
    const space = await createSpace('Guarded');
    const reader = await newMember(t, orgId, 'read');
    const editor = await newMember(t, orgId, 'edit');
    const creator = await newMember(t, orgId, 'create');
    const guest = await newMember(t, orgId, null);
    const asReader = t.clientFor(reader.token);
    const readerView = await ok('getSpaceById', asReader.spaces.getSpaceById(space.id));
    expect(readerView.permissions).toMatchObject({ view: true, comment: false, edit: false, admin: false });
    const editorView = await ok('getSpaceById', t.clientFor(editor.token).spaces.getSpaceById(space.id));
    expect(editorView.permissions).toMatchObject({
      view: true,
      comment: true,
      edit: true,
      review: false,
      admin: false,
    });
    // Below the role each operation needs: 403.
    await fails(asReader.orgs.createSpace(orgId, { title: 'no' }), 403);
    await fails(t.clientFor(editor.token).spaces.updateSpaceById(space.id, { title: 'no' }), 403);
    await fails(t.clientFor(editor.token).spaces.deleteSpaceById(space.id), 403);
    await fails(t.clientFor(creator.token).spaces.restoreSpace(space.id), 403);
    const own = await ok('createSpace', t.clientFor(creator.token).orgs.createSpace(orgId, { title: 'Mine' }), 201);
    expect(own.permissions.admin).toBe(false);
    // Guests see nothing they were not given.
    await fails(t.clientFor(guest.token).spaces.getSpaceById(space.id), 404);
    // defaultLevel caps members: "read" makes an editor a reader here.
    await t.client.spaces.updateSpaceById(space.id, { defaultLevel: asRole('read') });
    const capped = await ok('getSpaceById', t.clientFor(editor.token).spaces.getSpaceById(space.id));
    expect(capped.permissions.edit).toBe(false);
    // null default hides it from members without a grant.
    await t.client.spaces.updateSpaceById(space.id, { defaultLevel: null });
    await fails(asReader.spaces.getSpaceById(space.id), 404);
    // A member of another org sees nothing of this one.
    const outsider = await newMember(t, otherOrgId, 'admin');
    await fails(t.clientFor(outsider.token).spaces.getSpaceById(own.id), 404);
    await fails(t.clientFor(outsider.token).orgs.listSpacesInOrganizationById(orgId), 404);
    expect((await t.clientFor(outsider.token).spaces.deleteSpaceById(own.id)).status).toBe(204);
    expect((await t.client.spaces.getSpaceById(own.id)).data.deletedAt).toBeUndefined();
  });

  it('lists the spaces a member can access, with their permission', async () => {
    const member = await newMember(t, orgId, 'comment');
    const space = await createSpace('Visible to member');
    const res = await ok(
      'listSpacesForOrganizationMember',
      t.client.orgs.listSpacesForOrganizationMember(orgId, member.id, { order: 'asc' as never }),
    );
    const entry = res.items.find((i) => i.space.id === space.id);
    expect(entry?.permission).toBe('comment');
    const own = await ok(
      'listSpacesForOrganizationMember',
      t.clientFor(member.token).orgs.listSpacesForOrganizationMember(orgId, member.id),
    );
    expect(own.count).toBe(res.count);
    const other = await newMember(t, orgId, 'edit');
    await fails(t.clientFor(member.token).orgs.listSpacesForOrganizationMember(orgId, other.id), 403);
    await fails(t.client.orgs.listSpacesForOrganizationMember(orgId, 'notAMember'), 404);
  });

  it('rejects bad input', async () => {
    const space = await createSpace('Valid');
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: 'x'.repeat(51) } }),
      400,
    );
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { emoji: 'not an emoji' } }),
      400,
    );
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { language: 'klingon' } }),
      400,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${space.id}`, { token: t.adminToken, body: { editMode: 'frozen' } }),
      400,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${space.id}`, { token: t.adminToken, body: { visibility: 'in-collection' } }),
      400,
    );
    expectError(await raw(t, 'PATCH', `/v1/spaces/${space.id}`, { token: t.adminToken, body: { title: 12 } }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/spaces?limit=5000`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/spaces/unknownSpace`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'GET', `/v1/spaces/${space.id}`), 401);
    expectError(await raw(t, 'GET', `/v1/spaces/${space.id}`, { token: 'folio_wrong' }), 401);
  });
});
