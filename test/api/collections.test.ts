import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw, asRole, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';

let t: TestServer;
let orgId: string;
let otherOrgId: string;
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Collections Org' })).data.id;
  otherOrgId = (await t.client.orgs.createOrganization({ title: 'Other Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const create = (title: string, parent?: string) =>
  ok('createCollection', t.client.orgs.createCollection(orgId, { title, ...(parent ? { parent } : {}) }), 201);

describe('collections', () => {
  it('creates, reads, updates and lists collections (nested filter)', async () => {
    const top = await create('Guides');
    expect(top).toMatchObject({
      title: 'Guides',
      organization: orgId,
      defaultLevel: 'inherit',
      permissions: { admin: true, create: true },
    });
    const child = await create('Nested', top.id);
    expect(child.parent).toBe(top.id);
    const got = await ok('getCollectionById', t.client.collections.getCollectionById(top.id));
    expect(got.id).toBe(top.id);
    const updated = await ok(
      'updateCollectionById',
      t.client.collections.updateCollectionById(top.id, { title: 'User guides', defaultLevel: asRole('read') }),
    );
    expect(updated).toMatchObject({ title: 'User guides', defaultLevel: 'read' });
    const all = await ok('listCollectionsInOrganizationById', t.client.orgs.listCollectionsInOrganizationById(orgId));
    expect(all.items.map((c) => c.id)).toEqual(expect.arrayContaining([top.id, child.id]));
    const topOnly = await ok(
      'listCollectionsInOrganizationById',
      t.client.orgs.listCollectionsInOrganizationById(orgId, { nested: false }),
    );
    expect(topOnly.items.map((c) => c.id)).toContain(top.id);
    expect(topOnly.items.map((c) => c.id)).not.toContain(child.id);
  });

  it('pages through collections with an opaque cursor', async () => {
    const org = (await t.client.orgs.createOrganization({ title: 'Paging Org' })).data.id;
    for (let i = 0; i < 5; i++) await t.client.orgs.createCollection(org, { title: `C${i}` });
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await ok(
        'listCollectionsInOrganizationById',
        t.client.orgs.listCollectionsInOrganizationById(org, { limit: 2, ...(page ? { page } : {}) }),
      );
      expect(res.count).toBe(5);
      seen.push(...res.items.map((c) => c.title));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
  });

  it('moves collections with positions and rejects invalid or no-op moves', async () => {
    const a = await create('A');
    const b = await create('B');
    const inner = await create('Inner', a.id);
    // Into another collection, then back to the top level before A.
    const moved = await ok('moveCollection', t.client.collections.moveCollection(b.id, { parent: a.id }));
    expect(moved.parent).toBe(a.id);
    const back = await ok(
      'moveCollection',
      t.client.collections.moveCollection(b.id, {
        parent: null,
        position: { before: { type: 'collection', collection: a.id } } as never,
      }),
    );
    expect(back.parent).toBeUndefined();
    // Into itself or a descendant.
    expectError(
      await raw(t, 'POST', `/v1/collections/${a.id}/move`, { token: t.adminToken, body: { parent: inner.id } }),
      400,
      /itself/,
    );
    // A position naming something that is not a sibling there.
    expectError(
      await raw(t, 'POST', `/v1/collections/${b.id}/move`, {
        token: t.adminToken,
        body: { position: { before: { type: 'collection', collection: inner.id } } },
      }),
      400,
      /Invalid position/,
    );
    // Unknown parent.
    expectError(
      await raw(t, 'POST', `/v1/collections/${b.id}/move`, { token: t.adminToken, body: { parent: 'nope' } }),
      400,
      /unknown collection/,
    );
    // Nothing would change: B is already right before A.
    expectError(
      await raw(t, 'POST', `/v1/collections/${b.id}/move`, {
        token: t.adminToken,
        body: { position: { before: { type: 'collection', collection: a.id } } },
      }),
      400,
      /not change/,
    );
    expectError(await raw(t, 'POST', `/v1/collections/${b.id}/move`, { token: t.adminToken, body: {} }), 400);
  });

  it('transfers a collection with its spaces to another organization', async () => {
    const c = await create('To transfer');
    const space = (await t.client.orgs.createSpace(orgId, { title: 'Inside', parent: c.id })).data;
    const moved = await ok(
      'transferCollection',
      t.client.collections.transferCollection(c.id, { organization: otherOrgId }),
    );
    expect(moved.organization).toBe(otherOrgId);
    const s = (await t.client.spaces.getSpaceById(space.id)).data;
    expect(s.organization).toBe(otherOrgId);
    expectError(
      await raw(t, 'POST', `/v1/collections/${c.id}/transfer`, {
        token: t.adminToken,
        body: { organization: otherOrgId },
      }),
      400,
      /not change/,
    );
    expectError(
      await raw(t, 'POST', `/v1/collections/${c.id}/transfer`, {
        token: t.adminToken,
        body: { organization: 'unknownOrg' },
      }),
      404,
    );
    expectError(
      await raw(t, 'POST', `/v1/collections/nope/transfer`, { token: t.adminToken, body: { organization: orgId } }),
      404,
    );
  });

  it('deletes a collection: nested collections go, spaces inside are soft-deleted', async () => {
    const c = await create('Doomed');
    const nested = await create('Doomed child', c.id);
    const space = (await t.client.orgs.createSpace(orgId, { title: 'In doomed', parent: nested.id })).data;
    const res = await t.client.collections.deleteCollectionById(c.id);
    expect(res.status).toBe(204);
    await fails(t.client.collections.getCollectionById(nested.id), 404);
    const s = (await t.client.spaces.getSpaceById(space.id)).data;
    expect(s.deletedAt).toBeDefined();
    expect((await t.client.collections.deleteCollectionById(c.id)).status).toBe(204);
  });

  it('enforces roles and hides other organizations', async () => {
    const reader: TestUser = await newMember(t, orgId, 'read');
    const creator: TestUser = await newMember(t, orgId, 'create');
    const c = await create('Guarded');
    const asReader = t.clientFor(reader.token);
    const seen = await ok('getCollectionById', asReader.collections.getCollectionById(c.id));
    expect(seen.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    await fails(asReader.orgs.createCollection(orgId, { title: 'Nope' }), 403);
    await fails(asReader.collections.updateCollectionById(c.id, { title: 'Nope' }), 403);
    await fails(asReader.collections.deleteCollectionById(c.id), 403);
    await fails(asReader.collections.moveCollection(c.id, { parent: null, position: {} as never }), 403);
    const mine = await ok(
      'createCollection',
      t.clientFor(creator.token).orgs.createCollection(orgId, { title: 'Mine' }),
      201,
    );
    expect(mine.permissions.create).toBe(true);
    // defaultLevel null hides the collection from members without a grant.
    await t.client.collections.updateCollectionById(c.id, { defaultLevel: null });
    await fails(asReader.collections.getCollectionById(c.id), 404);
    // Outsiders learn nothing.
    const foreign = (await t.client.orgs.createCollection(otherOrgId, { title: 'Foreign' })).data;
    await fails(asReader.collections.getCollectionById(foreign.id), 404);
    await fails(asReader.orgs.listCollectionsInOrganizationById(otherOrgId), 404);
    await fails(t.client.collections.getCollectionById('doesNotExist'), 404);
  });

  it('rejects bad input', async () => {
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/collections`, { token: t.adminToken, body: { title: 'x'.repeat(51) } }),
      400,
    );
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/collections`, { token: t.adminToken, body: { title: 'ok', extra: 1 } }),
      400,
    );
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/collections`, { token: t.adminToken, body: { parent: 'missing' } }),
      400,
    );
    const c = await create('Valid');
    expectError(
      await raw(t, 'PATCH', `/v1/collections/${c.id}`, { token: t.adminToken, body: { defaultLevel: 'owner' } }),
      400,
    );
    expectError(await raw(t, 'PATCH', `/v1/collections/${c.id}`, { token: t.adminToken, body: {} }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/collections?limit=1001`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/collections/bad%20id`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/collections/${c.id}`), 401);
    expectError(await raw(t, 'GET', `/v1/collections/${c.id}`, { token: 'wrong' }), 401);
  });
});
