import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { asRole, expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { createUser, issueToken } from '../../sync-server/identity/users';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function newOrg(title = 'Invites Org'): Promise<string> {
  const org = await ok('createOrganization', t.client.orgs.createOrganization({ title }), 201);
  return org.id;
}

async function roleIn(orgId: string, userId: string) {
  const m = await ok('getMemberInOrganizationById', t.client.orgs.getMemberInOrganizationById(orgId, userId));
  return m.role;
}

/** The pending/accepted email invite row of an address. */
async function emailInvite(email: string) {
  const rows = await t.server.ctx.db.query<{ id: string; role: string | null; sso: boolean; accepted_at: Date | null }>(
    'SELECT id, role, sso, accepted_at FROM email_invites WHERE email = $1',
    [email.toLowerCase()],
  );
  return rows[0];
}

async function grantOf(resourceId: string, userId: string): Promise<string | undefined> {
  const rows = await t.server.ctx.db.query<{ role: string }>(
    "SELECT role FROM content_permissions WHERE resource_id = $1 AND principal_type = 'user' AND principal_id = $2",
    [resourceId, userId],
  );
  return rows[0]?.role;
}

describe('invite links to the organization', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await newOrg();
  });

  it('creates, reads, lists, updates and deletes links', async () => {
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('edit') }),
      201,
    );
    expect(link).toEqual({ object: 'invite', id: link.id, role: 'edit', redundant: false });
    const guestLink = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: null }),
      201,
    );
    expect(guestLink).toMatchObject({ role: null });

    const got = await ok('getOrganizationInviteLink', t.client.orgs.getOrganizationInviteLink(orgId, link.id));
    expect(got).toEqual(link);

    const page1 = await ok(
      'listOrganizationInviteLinks',
      t.client.orgs.listOrganizationInviteLinks(orgId, { limit: 1 }),
    );
    expect(page1.count).toBe(2);
    expect(page1.items.map((l) => l.id)).toEqual([link.id]);
    const page2 = await ok(
      'listOrganizationInviteLinks',
      t.client.orgs.listOrganizationInviteLinks(orgId, { limit: 1, page: page1.next!.page }),
    );
    expect(page2.items.map((l) => l.id)).toEqual([guestLink.id]);
    expect(page2.next).toBeUndefined();

    const updated = await ok(
      'updateOrganizationInviteById',
      t.client.orgs.updateOrganizationInviteById(orgId, link.id, { role: asRole('comment') }),
    );
    expect(updated).toMatchObject({ id: link.id, role: 'comment' });
    await fails(t.client.orgs.updateOrganizationInviteById(orgId, link.id, { level: asRole('read') }), 400);

    await ok('deleteOrganizationInviteById', t.client.orgs.deleteOrganizationInviteById(orgId, link.id), 204);
    await ok('deleteOrganizationInviteById', t.client.orgs.deleteOrganizationInviteById(orgId, link.id), 204);
    await fails(t.client.orgs.getOrganizationInviteLink(orgId, link.id), 404);
    await fails(t.client.orgs.updateOrganizationInviteById(orgId, link.id, { role: asRole('read') }), 404);
    const after = await ok('listOrganizationInviteLinks', t.client.orgs.listOrganizationInviteLinks(orgId));
    expect(after.items.map((l) => l.id)).toEqual([guestLink.id]);
  });

  it('lets a user join with a link; joining never lowers a role', async () => {
    const user = await newUser(t);
    const readLink = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('read') }),
      201,
    );
    const createLink = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('create') }),
      201,
    );
    const joined = await ok(
      'joinOrganizationWithInvite',
      t.clientFor(user.token).orgs.joinOrganizationWithInvite(orgId, readLink.id),
    );
    expect(joined).toEqual({});
    expect(await roleIn(orgId, user.id)).toBe('read');
    await ok(
      'joinOrganizationWithInvite',
      t.clientFor(user.token).orgs.joinOrganizationWithInvite(orgId, createLink.id),
    );
    expect(await roleIn(orgId, user.id)).toBe('create');
    await ok('joinOrganizationWithInvite', t.clientFor(user.token).orgs.joinOrganizationWithInvite(orgId, readLink.id));
    expect(await roleIn(orgId, user.id)).toBe('create');
  });

  it('lets only admins manage organization links', async () => {
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('read') }),
      201,
    );
    const creator = await newMember(t, orgId, 'create');
    const guest = await newMember(t, orgId, null);
    const stranger = await newUser(t);
    for (const who of [creator, guest]) {
      const c = t.clientFor(who.token).orgs;
      await fails(c.createOrganizationInvite(orgId, { role: asRole('admin') }), 403);
      await fails(c.listOrganizationInviteLinks(orgId), 403);
      await fails(c.getOrganizationInviteLink(orgId, link.id), 403);
      await fails(c.updateOrganizationInviteById(orgId, link.id, { role: asRole('admin') }), 403);
      await fails(c.deleteOrganizationInviteById(orgId, link.id), 403);
    }
    const s = t.clientFor(stranger.token).orgs;
    await fails(s.createOrganizationInvite(orgId, { role: asRole('read') }), 404);
    await fails(s.listOrganizationInviteLinks(orgId), 404);
    await fails(s.getOrganizationInviteLink(orgId, link.id), 404);
    // DELETE of what a stranger cannot see is the quiet 204 of a missing resource, and removes nothing.
    expect((await s.deleteOrganizationInviteById(orgId, link.id)).status).toBe(204);
    await ok('getOrganizationInviteLink', t.client.orgs.getOrganizationInviteLink(orgId, link.id));
  });

  it('keeps ids of one organization out of another', async () => {
    const otherOrg = await newOrg('Other Org');
    const foreign = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(otherOrg, { role: asRole('admin') }),
      201,
    );
    const user = await newUser(t);
    await fails(t.clientFor(user.token).orgs.joinOrganizationWithInvite(orgId, foreign.id), 404);
    await fails(t.client.orgs.getOrganizationInviteLink(orgId, foreign.id), 404);
    await ok('deleteOrganizationInviteById', t.client.orgs.deleteOrganizationInviteById(orgId, foreign.id), 204);
    // Still there: the delete above was scoped to the other organization.
    await ok('getOrganizationInviteLink', t.client.orgs.getOrganizationInviteLink(otherOrg, foreign.id));
    await fails(t.clientFor(user.token).orgs.joinOrganizationWithInvite(orgId, 'unknownInviteId'), 404);
  });

  it('refuses new and existing links while invite links are off', async () => {
    const org = await newOrg('Closed Org');
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(org, { role: asRole('read') }),
      201,
    );
    await ok('updateOrganizationById', t.client.orgs.updateOrganizationById(org, { inviteLinks: false }));
    const msg = await fails(t.client.orgs.createOrganizationInvite(org, { role: asRole('read') }), 400);
    expect(msg).toMatch(/disabled/);
    const user = await newUser(t);
    await fails(t.clientFor(user.token).orgs.joinOrganizationWithInvite(org, link.id), 403);
    await ok('updateOrganizationById', t.client.orgs.updateOrganizationById(org, { inviteLinks: true }));
    await ok('joinOrganizationWithInvite', t.clientFor(user.token).orgs.joinOrganizationWithInvite(org, link.id));
  });

  it('rejects bad input and missing tokens', async () => {
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { role: asRole('read') }),
      201,
    );
    const path = `/v1/orgs/${orgId}/link-invites`;
    expectError(await raw(t, 'POST', path, { token: t.adminToken, body: { role: 'owner' } }), 400);
    expectError(await raw(t, 'POST', path, { token: t.adminToken, body: {} }), 400);
    expectError(await raw(t, 'POST', path, { token: t.adminToken, body: { role: 'read', extra: true } }), 400);
    expectError(await raw(t, 'PATCH', `${path}/${link.id}`, { token: t.adminToken, body: {} }), 400);
    expectError(await raw(t, 'GET', `${path}?limit=1001`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `${path}/bad id!`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', path), 401);
    expectError(await raw(t, 'POST', path, { token: 'wrong', body: { role: 'read' } }), 401);
    expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/invites/${link.id}`), 401);
    expectError(await raw(t, 'DELETE', `${path}/${link.id}`), 401);
  });
});

describe('invite links to spaces and collections', () => {
  let orgId: string;
  let spaceId: string;
  let collectionId: string;
  beforeAll(async () => {
    orgId = await newOrg('Content Org');
    spaceId = (await ok('createSpace', t.client.orgs.createSpace(orgId, { title: 'Handbook' }), 201)).id;
    collectionId = (await ok('createCollection', t.client.orgs.createCollection(orgId, { title: 'Guides' }), 201)).id;
  });

  it('manages a space link and lets an outsider join as a guest with that level', async () => {
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('comment'), space: spaceId }),
      201,
    );
    expect(link).toMatchObject({
      object: 'invite',
      level: 'comment',
      redundant: false,
      space: { object: 'space', id: spaceId },
    });
    expect(link).not.toHaveProperty('role');
    const got = await ok('getOrganizationInviteLink', t.client.orgs.getOrganizationInviteLink(orgId, link.id));
    expect(got).toMatchObject({ id: link.id, level: 'comment', space: { id: spaceId } });
    // Organization link lists leave content links out (GitBook's list holds organization links only).
    const list = await ok('listOrganizationInviteLinks', t.client.orgs.listOrganizationInviteLinks(orgId));
    expect(list.items.map((l) => l.id)).not.toContain(link.id);

    const outsider = await newUser(t);
    await ok('joinOrganizationWithInvite', t.clientFor(outsider.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    expect(await roleIn(orgId, outsider.id)).toBeNull();
    expect(await grantOf(spaceId, outsider.id)).toBe('comment');
    await ok('getSpaceById', t.clientFor(outsider.token).spaces.getSpaceById(spaceId));

    const raised = await ok(
      'updateOrganizationInviteById',
      t.client.orgs.updateOrganizationInviteById(orgId, link.id, { level: asRole('edit') }),
    );
    expect(raised).toMatchObject({ level: 'edit', space: { id: spaceId } });
    await ok('joinOrganizationWithInvite', t.clientFor(outsider.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    expect(await grantOf(spaceId, outsider.id)).toBe('edit');
    // A lower link never reduces a grant.
    const low = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('read'), space: spaceId }),
      201,
    );
    await ok('joinOrganizationWithInvite', t.clientFor(outsider.token).orgs.joinOrganizationWithInvite(orgId, low.id));
    expect(await grantOf(spaceId, outsider.id)).toBe('edit');
    // A full member joining through a space link keeps their role and gains the grant.
    const reader = await newMember(t, orgId, 'read');
    await ok('joinOrganizationWithInvite', t.clientFor(reader.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    expect(await roleIn(orgId, reader.id)).toBe('read');
    expect(await grantOf(spaceId, reader.id)).toBe('edit');

    await fails(t.client.orgs.updateOrganizationInviteById(orgId, link.id, { role: asRole('read') }), 400);
    await fails(t.client.orgs.updateOrganizationInviteById(orgId, link.id, { level: null }), 400);
    await ok('deleteOrganizationInviteById', t.client.orgs.deleteOrganizationInviteById(orgId, link.id), 204);
    await fails(t.client.orgs.getOrganizationInviteLink(orgId, link.id), 404);
  });

  it('manages a collection link', async () => {
    const link = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('read'), collection: collectionId }),
      201,
    );
    expect(link).toMatchObject({
      object: 'invite',
      level: 'read',
      redundant: false,
      collection: { object: 'collection', id: collectionId },
    });
    const got = await ok('getOrganizationInviteLink', t.client.orgs.getOrganizationInviteLink(orgId, link.id));
    expect(got).toMatchObject({ collection: { id: collectionId } });
    const updated = await ok(
      'updateOrganizationInviteById',
      t.client.orgs.updateOrganizationInviteById(orgId, link.id, { level: asRole('review') }),
    );
    expect(updated).toMatchObject({ level: 'review' });
    const outsider = await newUser(t);
    await ok('joinOrganizationWithInvite', t.clientFor(outsider.token).orgs.joinOrganizationWithInvite(orgId, link.id));
    expect(await roleIn(orgId, outsider.id)).toBeNull();
    expect(await grantOf(collectionId, outsider.id)).toBe('review');
    await ok('deleteOrganizationInviteById', t.client.orgs.deleteOrganizationInviteById(orgId, link.id), 204);
  });

  it('lets space admins (not only org admins) manage links to that space', async () => {
    const spaceAdmin = await newMember(t, orgId, 'read');
    const editor = await newMember(t, orgId, 'read');
    const adminLink = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('admin'), space: spaceId }),
      201,
    );
    const editLink = await ok(
      'createOrganizationInvite',
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('edit'), space: spaceId }),
      201,
    );
    await ok(
      'joinOrganizationWithInvite',
      t.clientFor(spaceAdmin.token).orgs.joinOrganizationWithInvite(orgId, adminLink.id),
    );
    await ok(
      'joinOrganizationWithInvite',
      t.clientFor(editor.token).orgs.joinOrganizationWithInvite(orgId, editLink.id),
    );

    const mine = await ok(
      'createOrganizationInvite',
      t.clientFor(spaceAdmin.token).orgs.createOrganizationInvite(orgId, { level: asRole('read'), space: spaceId }),
      201,
    );
    await ok(
      'getOrganizationInviteLink',
      t.clientFor(spaceAdmin.token).orgs.getOrganizationInviteLink(orgId, editLink.id),
    );
    await ok(
      'updateOrganizationInviteById',
      t.clientFor(spaceAdmin.token).orgs.updateOrganizationInviteById(orgId, mine.id, { level: asRole('comment') }),
    );
    // ...but not organization links or other content.
    await fails(t.clientFor(spaceAdmin.token).orgs.createOrganizationInvite(orgId, { role: asRole('read') }), 403);
    await fails(
      t
        .clientFor(spaceAdmin.token)
        .orgs.createOrganizationInvite(orgId, { level: asRole('read'), collection: collectionId }),
      403,
    );

    // Editing rights are not enough.
    await fails(
      t.clientFor(editor.token).orgs.createOrganizationInvite(orgId, { level: asRole('read'), space: spaceId }),
      403,
    );
    await fails(t.clientFor(editor.token).orgs.getOrganizationInviteLink(orgId, mine.id), 403);
    await fails(t.clientFor(editor.token).orgs.deleteOrganizationInviteById(orgId, mine.id), 403);
    await ok(
      'deleteOrganizationInviteById',
      t.clientFor(spaceAdmin.token).orgs.deleteOrganizationInviteById(orgId, mine.id),
      204,
    );
  });

  it('rejects links to unknown or foreign content and links without a level', async () => {
    const otherOrg = await newOrg('Foreign Content');
    const foreignSpace = (await ok('createSpace', t.client.orgs.createSpace(otherOrg, { title: 'Theirs' }), 201)).id;
    await fails(t.client.orgs.createOrganizationInvite(orgId, { level: asRole('read'), space: foreignSpace }), 404);
    await fails(t.client.orgs.createOrganizationInvite(orgId, { level: asRole('read'), space: 'noSuchSpace' }), 404);
    await fails(
      t.client.orgs.createOrganizationInvite(orgId, { level: asRole('read'), collection: 'noSuchCollection' }),
      404,
    );
    await fails(t.client.orgs.createOrganizationInvite(orgId, { level: null, space: spaceId }), 400);
    expectError(
      await raw(t, 'POST', `/v1/orgs/${orgId}/link-invites`, {
        token: t.adminToken,
        body: { level: 'read', space: spaceId, collection: collectionId },
      }),
      400,
    );
  });
});

describe('email invites', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await newOrg('Mail Org');
  });

  it('adds nobody without consent: existing users get a pending invite and a join link, like everyone else', async () => {
    const existing = await newUser(t);
    const member = await newMember(t, orgId, 'edit');
    const send = vi.spyOn(t.server.ctx.mailer, 'sendInvite');
    const newcomer = `Newcomer.${Date.now()}@Example.com`;
    const res = await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(orgId, {
        emails: [existing.email.toUpperCase(), member.email, { email: newcomer, role: asRole('review') }],
        role: asRole('comment'),
      }),
    );
    expect(res).toEqual({ users: [], invited: 2 });
    // An existing account is not made a member until its owner accepts.
    await fails(t.client.orgs.getMemberInOrganizationById(orgId, existing.id), 404);
    const existingInvite = await emailInvite(existing.email.toLowerCase());
    expect(existingInvite).toMatchObject({ role: 'comment', accepted_at: null });
    // Existing members are left as they are.
    expect(await roleIn(orgId, member.id)).toBe('edit');
    expect(await emailInvite(member.email.toLowerCase())).toBeUndefined();
    await ok(
      'joinOrganizationWithInvite',
      t.clientFor(existing.token).orgs.joinOrganizationWithInvite(orgId, existingInvite!.id),
    );
    expect(await roleIn(orgId, existing.id)).toBe('comment');

    const pending = await emailInvite(newcomer);
    expect(pending).toMatchObject({ role: 'review', accepted_at: null });
    const inviteId = pending!.id;
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenCalledWith({
      to: newcomer.toLowerCase(),
      organizationTitle: 'Mail Org',
      joinUrl: t.server.ctx.urls.app(`/join/${orgId}/${inviteId}`),
    });

    // Somebody else cannot use it.
    await fails(t.clientFor(existing.token).orgs.joinOrganizationWithInvite(orgId, inviteId), 403);
    const stranger = await newUser(t);
    await fails(t.clientFor(stranger.token).orgs.joinOrganizationWithInvite(orgId, inviteId), 403);

    // The invitee signs up with that address and joins.
    const userId = await createUser(t.server.ctx.db, { displayName: 'Newcomer', email: newcomer });
    const invitee: TestUser = { id: userId, token: await issueToken(t.server.ctx.db, userId, 'test'), email: newcomer };
    await ok('joinOrganizationWithInvite', t.clientFor(invitee.token).orgs.joinOrganizationWithInvite(orgId, inviteId));
    expect(await roleIn(orgId, invitee.id)).toBe('review');
    expect((await emailInvite(newcomer))!.accepted_at).toBeInstanceOf(Date);
    // Joining again is harmless.
    await ok('joinOrganizationWithInvite', t.clientFor(invitee.token).orgs.joinOrganizationWithInvite(orgId, inviteId));
    // Once removed, the used invite does not bring them back.
    await ok(
      'removeMemberFromOrganizationById',
      t.client.orgs.removeMemberFromOrganizationById(orgId, invitee.id),
      204,
    );
    await fails(t.clientFor(invitee.token).orgs.joinOrganizationWithInvite(orgId, inviteId), 404);
  });

  it("uses the organization's default role, re-invites with a new id and records SSO", async () => {
    await ok('updateOrganizationById', t.client.orgs.updateOrganizationById(orgId, { defaultRole: asRole('edit') }));
    const email = `sso.${Date.now()}@example.com`;
    const first = await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(orgId, { emails: [email, email.toUpperCase()] }),
    );
    expect(first).toEqual({ users: [], invited: 1 });
    const before = await emailInvite(email);
    expect(before).toMatchObject({ role: 'edit', sso: false });
    await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(orgId, { emails: [email], role: null, sso: true }),
    );
    const after = await emailInvite(email);
    expect(after).toMatchObject({ role: null, sso: true });
    expect(after!.id).not.toBe(before!.id);

    const userId = await createUser(t.server.ctx.db, { displayName: 'SSO Guest', email });
    const token = await issueToken(t.server.ctx.db, userId, 'test');
    // The replaced invite id is void.
    await fails(t.clientFor(token).orgs.joinOrganizationWithInvite(orgId, before!.id), 404);
    await ok('joinOrganizationWithInvite', t.clientFor(token).orgs.joinOrganizationWithInvite(orgId, after!.id));
    const member = await ok('getMemberInOrganizationById', t.client.orgs.getMemberInOrganizationById(orgId, userId));
    expect(member).toMatchObject({ role: null, sso: true });
  });

  it('lets only admins invite', async () => {
    const creator = await newMember(t, orgId, 'create');
    const stranger = await newUser(t);
    await fails(t.clientFor(creator.token).orgs.inviteUsersToOrganization(orgId, { emails: ['x@example.com'] }), 403);
    await fails(t.clientFor(stranger.token).orgs.inviteUsersToOrganization(orgId, { emails: ['x@example.com'] }), 404);
  });

  it('validates addresses and caps the list', async () => {
    const path = `/v1/orgs/${orgId}/invites`;
    const post = (body: unknown) => raw(t, 'POST', path, { token: t.adminToken, body });
    expectError(await post({ emails: ['not-an-email'] }), 400);
    expectError(await post({ emails: [{ email: 'a@example.com' }] }), 400);
    expectError(await post({ emails: [{ email: 'nope', role: 'read' }] }), 400);
    expectError(await post({ emails: [] }), 400);
    expectError(await post({}), 400);
    expectError(await post({ emails: ['a@example.com'], role: 'owner' }), 400);
    expectError(await post({ emails: ['a@example.com'], extra: 1 }), 400);
    expectError(await post({ emails: Array.from({ length: 101 }, (_, i) => `u${i}@example.com`) }), 400);
    expectError(await raw(t, 'POST', path, { body: { emails: ['a@example.com'] } }), 401);
    expectError(await raw(t, 'POST', path, { token: 'wrong', body: { emails: ['a@example.com'] } }), 401);
    // Nothing was recorded by the refused calls.
    expect(await emailInvite('a@example.com')).toBeUndefined();
  });
});
