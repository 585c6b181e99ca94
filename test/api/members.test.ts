import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { asRole, expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { addMember, newMember } from '../helpers/members';
import { approveDomain } from '../helpers/domains';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

async function newOrg(title = 'Members Org'): Promise<string> {
  const org = await ok('createOrganization', t.client.orgs.createOrganization({ title }), 201);
  return org.id;
}

/** Every member id of an org, walking the pages of `limit` items. */
async function walk(orgId: string, token: string, query: Record<string, string | number> = {}) {
  const ids: string[] = [];
  let page: string | undefined;
  let count = -1;
  for (let i = 0; i < 20; i++) {
    const list = await ok(
      'listMembersInOrganizationById',
      t.clientFor(token).orgs.listMembersInOrganizationById(orgId, { ...query, page } as never),
    );
    count = list.count ?? -1;
    ids.push(...list.items.map((m) => m.id));
    page = list.next?.page;
    if (!page) break;
  }
  return { ids, count };
}

describe('members: listing', () => {
  let orgId: string;
  let adminId: string;
  const people: Record<string, TestUser> = {};

  beforeAll(async () => {
    orgId = await newOrg();
    adminId = (await ok('getAuthenticatedUser', t.client.user.getAuthenticatedUser())).id;
    // Distinct join times so the joinedAt order is meaningful.
    for (const [name, role] of [
      ['Zoe Writer', 'create'],
      ['alice Reader', 'read'],
      ['Bob Editor', 'edit'],
      ['Carol Guest', null],
    ] as const) {
      t.clock.advance(1000);
      people[name] = await newMember(t, orgId, role, name);
    }
  });

  it('pages over all members with a next cursor and the right count', async () => {
    const first = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { limit: 2 }),
    );
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(5);
    expect(first.next?.page).toBeTruthy();
    const { ids, count } = await walk(orgId, t.adminToken, { limit: 2 });
    expect(count).toBe(5);
    expect(new Set(ids).size).toBe(5);
    expect(ids.sort()).toEqual([adminId, ...Object.values(people).map((p) => p.id)].sort());
  });

  it('orders by join time, newest first by default', async () => {
    const desc = await walk(orgId, t.adminToken);
    expect(desc.ids[0]).toBe(people['Carol Guest']!.id);
    expect(desc.ids.at(-1)).toBe(adminId);
    const asc = await walk(orgId, t.adminToken, { order: 'asc' });
    expect(asc.ids).toEqual([...desc.ids].reverse());
  });

  it('filters by role, guests and search text', async () => {
    const creators = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { role: asRole('create') as never }),
    );
    expect(creators.items.map((m) => m.id)).toEqual([people['Zoe Writer']!.id]);
    expect(creators.count).toBe(1);
    const guests = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { role: 'guest' }),
    );
    expect(guests.items.map((m) => [m.id, m.role])).toEqual([[people['Carol Guest']!.id, null]]);
    const byName = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { search: 'ALICE' }),
    );
    expect(byName.items.map((m) => m.id)).toEqual([people['alice Reader']!.id]);
    const byEmail = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { search: people['Bob Editor']!.email.slice(0, 12) }),
    );
    expect(byEmail.items.map((m) => m.id)).toEqual([people['Bob Editor']!.id]);
    // LIKE wildcards are searched literally.
    const wildcard = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { search: '%' }),
    );
    expect(wildcard.items).toEqual([]);
    expect(wildcard.count).toBe(0);
  });

  it('sorts by name and by last activity (only members seen)', async () => {
    const byName = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { sort: 'name', order: 'asc' }),
    );
    const names = byName.items.map((m) => m.user.displayName);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const none = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt' }),
    );
    expect(none.count).toBe(0);
    t.clock.advance(1000);
    await ok(
      'updateOrganizationMemberLastSeenAt',
      t.clientFor(people['Bob Editor']!.token).orgs.updateOrganizationMemberLastSeenAt(orgId),
    );
    t.clock.advance(1000);
    // Guests are members too and may ping.
    await ok(
      'updateOrganizationMemberLastSeenAt',
      t.clientFor(people['Carol Guest']!.token).orgs.updateOrganizationMemberLastSeenAt(orgId),
    );
    const seen = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt' }),
    );
    expect(seen.items.map((m) => m.id)).toEqual([people['Carol Guest']!.id, people['Bob Editor']!.id]);
    expect(seen.items[0]!.lastSeenAt).toBeTruthy();
    const seenAsc = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt', order: 'asc' }),
    );
    expect(seenAsc.items.map((m) => m.id)).toEqual([people['Bob Editor']!.id, people['Carol Guest']!.id]);
  });

  it('lets full members list but not guests or strangers', async () => {
    await ok(
      'listMembersInOrganizationById',
      t.clientFor(people['alice Reader']!.token).orgs.listMembersInOrganizationById(orgId),
    );
    await fails(t.clientFor(people['Carol Guest']!.token).orgs.listMembersInOrganizationById(orgId), 403);
    const stranger = await newUser(t);
    await fails(t.clientFor(stranger.token).orgs.listMembersInOrganizationById(orgId), 404);
  });

  it('rejects bad list input and missing tokens', async () => {
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?limit=1001`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?limit=0`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?role=owner`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?sort=email`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?order=up`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members?page=garbage`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members`), 401);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/members`, { token: 'wrong' }), 401);
    expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/ping`), 401);
  });
});

describe('members: one member', () => {
  it('reads a member with counts of teams and directly granted spaces', async () => {
    const orgId = await newOrg();
    const writer = await newMember(t, orgId, 'create', 'Counted Writer');
    const space = await ok('createSpace', t.client.orgs.createSpace(orgId, { title: 'Granted' }), 201);
    await ok('createSpace', t.client.orgs.createSpace(orgId, { title: 'Not granted' }), 201);
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('edit'), space: space.id }),
      201,
    );
    await ok('joinOrganizationWithInvite', t.clientFor(writer.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'Docs', members: [writer.id] }),
      201,
    );

    const member = await ok(
      'getMemberInOrganizationById',
      t.clientFor(writer.token).orgs.getMemberInOrganizationById(orgId, writer.id),
    );
    expect(member).toMatchObject({
      object: 'member',
      id: writer.id,
      role: 'create',
      disabled: false,
      sso: false,
      spaces: 1,
      teams: 1,
      sites: 0,
    });
    expect(member.user).toMatchObject({
      object: 'user',
      id: writer.id,
      displayName: 'Counted Writer',
      email: writer.email,
    });
    expect(member.lastSeenAt).toBeUndefined();
    // The list computes the same counts.
    const list = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { search: 'Counted' }),
    );
    expect(list.items[0]).toMatchObject({ spaces: 1, teams: 1 });

    await ok(
      'updateOrganizationMemberLastSeenAt',
      t.clientFor(writer.token).orgs.updateOrganizationMemberLastSeenAt(orgId),
    );
    const seen = await ok('getMemberInOrganizationById', t.client.orgs.getMemberInOrganizationById(orgId, writer.id));
    expect(new Date(seen.lastSeenAt!).getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
  });

  it('hides members from strangers and guests, and unknown members from everyone', async () => {
    const orgId = await newOrg();
    const reader = await newMember(t, orgId, 'read');
    const guest = await newMember(t, orgId, null);
    const stranger = await newUser(t);
    await ok(
      'getMemberInOrganizationById',
      t.clientFor(reader.token).orgs.getMemberInOrganizationById(orgId, guest.id),
    );
    await ok('getMemberInOrganizationById', t.clientFor(guest.token).orgs.getMemberInOrganizationById(orgId, guest.id));
    await fails(t.clientFor(guest.token).orgs.getMemberInOrganizationById(orgId, reader.id), 403);
    await fails(t.clientFor(stranger.token).orgs.getMemberInOrganizationById(orgId, reader.id), 404);
    await fails(t.client.orgs.getMemberInOrganizationById(orgId, stranger.id), 404);
    await fails(t.clientFor(stranger.token).orgs.updateOrganizationMemberLastSeenAt(orgId), 404);
  });
});

describe('members: roles, SSO and removal', () => {
  let orgId: string;
  let adminId: string;
  beforeAll(async () => {
    orgId = await newOrg('Role Org');
    adminId = (await ok('getAuthenticatedUser', t.client.user.getAuthenticatedUser())).id;
  });

  it('lets admins change roles, and nobody else', async () => {
    const creator = await newMember(t, orgId, 'create');
    const reader = await newMember(t, orgId, 'read');
    const updated = await ok(
      'updateMemberInOrganizationById',
      t.client.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: asRole('edit') }),
    );
    expect(updated).toMatchObject({ id: reader.id, role: 'edit' });
    const guest = await ok(
      'updateMemberInOrganizationById',
      t.client.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: null }),
    );
    expect(guest.role).toBeNull();
    // An empty body changes nothing.
    const same = await ok(
      'updateMemberInOrganizationById',
      t.client.orgs.updateMemberInOrganizationById(orgId, reader.id, {}),
    );
    expect(same.role).toBeNull();

    await fails(
      t.clientFor(creator.token).orgs.updateMemberInOrganizationById(orgId, reader.id, { role: asRole('admin') }),
      403,
    );
    await fails(
      t.clientFor(creator.token).orgs.updateMemberInOrganizationById(orgId, creator.id, { role: asRole('admin') }),
      403,
    );
    const stranger = await newUser(t);
    await fails(
      t.clientFor(stranger.token).orgs.updateMemberInOrganizationById(orgId, reader.id, { role: asRole('read') }),
      404,
    );
    await fails(t.client.orgs.updateMemberInOrganizationById(orgId, stranger.id, { role: asRole('read') }), 404);
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { token: t.adminToken, body: { role: 'owner' } }),
      400,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, {
        token: t.adminToken,
        body: { role: 'read', extra: 1 },
      }),
      400,
    );
    expectError(await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { body: { role: 'read' } }), 401);
  });

  it('never leaves the organization without an admin', async () => {
    const msg = await fails(
      t.client.orgs.updateMemberInOrganizationById(orgId, adminId, { role: asRole('create') }),
      400,
    );
    expect(msg).toMatch(/last admin/);
    expectError(
      await raw(t, 'DELETE', `/v1/orgs/${orgId}/members/${adminId}`, { token: t.adminToken }),
      400,
      /last admin/,
    );

    const second = await newMember(t, orgId, 'admin');
    // With a second admin, the first may step down; then the second is the last one.
    await ok(
      'updateMemberInOrganizationById',
      t.client.orgs.updateMemberInOrganizationById(orgId, adminId, { role: asRole('create') }),
    );
    await fails(t.clientFor(second.token).orgs.removeMemberFromOrganizationById(orgId, second.id), 400);
    await ok(
      'updateMemberInOrganizationById',
      t.clientFor(second.token).orgs.updateMemberInOrganizationById(orgId, adminId, { role: asRole('admin') }),
    );
    await ok(
      'removeMemberFromOrganizationById',
      t.clientFor(second.token).orgs.removeMemberFromOrganizationById(orgId, second.id),
      204,
    );
    const admins = await ok(
      'listMembersInOrganizationById',
      t.client.orgs.listMembersInOrganizationById(orgId, { role: asRole('admin') as never }),
    );
    expect(admins.items.map((m) => m.id)).toEqual([adminId]);
  });

  it('sets SSO members (admins only), of a domain the organization verified', async () => {
    const member = await newMember(t, orgId, 'edit');
    await fails(t.clientFor(member.token).orgs.setUserAsSsoMemberForOrganization(orgId, member.id), 403);
    // SSO-only would lock the person out of every other sign-in: only the owner of their domain may ask it.
    const unproved = await raw(t, 'POST', `/v1/orgs/${orgId}/members/${member.id}/sso`, { token: t.adminToken });
    expectError(unproved, 400, /email domain this organization has verified/);
    await approveDomain(t, orgId, member.email.split('@')[1]!);
    const sso = await ok(
      'setUserAsSSOMemberForOrganization',
      t.client.orgs.setUserAsSsoMemberForOrganization(orgId, member.id),
    );
    expect(sso).toMatchObject({ id: member.id, sso: true, role: 'edit' });
    const stranger = await newUser(t);
    await fails(t.client.orgs.setUserAsSsoMemberForOrganization(orgId, stranger.id), 404);
    await fails(t.clientFor(stranger.token).orgs.setUserAsSsoMemberForOrganization(orgId, member.id), 404);
  });

  it('removes members with their team memberships and direct grants', async () => {
    const member = await newMember(t, orgId, 'create');
    const other = await newMember(t, orgId, 'create');
    const space = await ok('createSpace', t.client.orgs.createSpace(orgId, { title: 'Shared' }), 201);
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('admin'), space: space.id }),
      201,
    );
    await ok('joinOrganizationWithInvite', t.clientFor(member.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'Leavers', members: [member.id] }),
      201,
    );

    // Only admins remove others.
    await fails(t.clientFor(other.token).orgs.removeMemberFromOrganizationById(orgId, member.id), 403);
    await ok('removeMemberFromOrganizationById', t.client.orgs.removeMemberFromOrganizationById(orgId, member.id), 204);
    await fails(t.client.orgs.getMemberInOrganizationById(orgId, member.id), 404);
    const db = t.server.ctx.db;
    expect(
      await db.query("SELECT 1 FROM content_permissions WHERE principal_type = 'user' AND principal_id = $1", [
        member.id,
      ]),
    ).toEqual([]);
    expect(await db.query('SELECT 1 FROM team_members WHERE user_id = $1', [member.id])).toEqual([]);
    // The former member no longer sees the organization.
    await fails(t.clientFor(member.token).orgs.getOrganizationById(orgId), 404);

    // Removing a non-member is a no-op; a member may leave on their own.
    await ok('removeMemberFromOrganizationById', t.client.orgs.removeMemberFromOrganizationById(orgId, member.id), 204);
    await ok(
      'removeMemberFromOrganizationById',
      t.clientFor(other.token).orgs.removeMemberFromOrganizationById(orgId, other.id),
      204,
    );
    await fails(t.clientFor(other.token).orgs.listMembersInOrganizationById(orgId), 404);
    expectError(await raw(t, 'DELETE', `/v1/orgs/${orgId}/members/${other.id}`), 401);
  });

  it('a member rejoining through a link keeps the role they had when higher', async () => {
    const member = await newMember(t, orgId, 'review');
    await addMember(t, orgId, member, 'read');
    const got = await ok('getMemberInOrganizationById', t.client.orgs.getMemberInOrganizationById(orgId, member.id));
    expect(got.role).toBe('review');
  });
});

describe('members: disabling (Folio extension)', () => {
  it('suspends every token of a disabled member in that organization, and enables it again', async () => {
    const orgId = await newOrg('Disabling Org');
    const member = await newMember(t, orgId, 'edit', 'Dana Disabled');
    const patch = (body: unknown, token = t.adminToken) =>
      raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${member.id}`, { token, body });

    expectError(await patch({ disabled: true }, member.token), 403);
    const off = await patch({ disabled: true });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: member.id, disabled: true, role: 'edit' });
    // Their token no longer reaches anything of the organization; other organizations are not affected.
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}`, { token: member.token }), 404);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/spaces`, { token: member.token }), 404);
    expect((await raw(t, 'GET', '/v1/user', { token: member.token })).status).toBe(200);
    const listed = await raw(t, 'GET', `/v1/orgs`, { token: member.token });
    expect((listed.body as { items: { id: string }[] }).items.map((o) => o.id)).not.toContain(orgId);
    // Joining with a link does not undo it.
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('admin') }),
      201,
    );
    expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: member.token }), 403, /disabled/);

    const on = await patch({ disabled: false });
    expect(on.body).toMatchObject({ disabled: false, role: 'edit' });
    expect((await raw(t, 'GET', `/v1/orgs/${orgId}`, { token: member.token })).status).toBe(200);
  });

  it('never disables oneself or the last admin, and refuses bad input', async () => {
    const orgId = await newOrg('Last Admin Org');
    const adminId = (await ok('getAuthenticatedUser', t.client.user.getAuthenticatedUser())).id;
    const self = await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${adminId}`, {
      token: t.adminToken,
      body: { disabled: true },
    });
    expectError(self, 400, /your own membership/);
    const other = await newMember(t, orgId, 'admin', 'Other Admin');
    const lastAdmin = await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${adminId}`, {
      token: other.token,
      body: { disabled: true },
    });
    expect(lastAdmin.status).toBe(200);
    // Now `other` is the last active admin: nobody may disable them.
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${other.id}`, { token: other.token, body: { disabled: true } }),
      400,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/${other.id}`, { token: other.token, body: { disabled: 'yes' } }),
      400,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${orgId}/members/nobody`, { token: other.token, body: { disabled: true } }),
      404,
    );
  });
});
