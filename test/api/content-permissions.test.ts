import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, newUser, ok, raw, type TestUser } from '../helpers/api';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { newMember } from '../helpers/members';

let t: TestServer;
let orgId: string;
let guest: TestUser;
let guest2: TestUser;
let reader: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Permissions Org' }), 201)).id;
  guest = await newMember(t, orgId, null, 'Gia Guest');
  guest2 = await newMember(t, orgId, null, 'Gil Guest');
  reader = await newMember(t, orgId, 'read', 'Ray Reader');
  stranger = await newUser(t, 'Stu Stranger');
});
afterAll(async () => {
  await t?.close();
});

const admin = () => t.adminToken;

async function must(method: string, path: string, body?: unknown, token = admin()): Promise<{ id: string }> {
  const res = await raw(t, method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as { id: string };
}

const newSpace = async () => (await must('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Guarded' })).id;

async function listed(path: string, operationId: string, token = admin()) {
  const res = await raw(t, 'GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  assertMatchesGitBook(operationId, 200, res.body);
  return res.body as { items: { permission: string; user?: { id: string }; team?: { id: string } }[]; count: number };
}

describe('space permissions', () => {
  it('a granted guest can read the space; changing and removing the grant follows at once', async () => {
    const spaceId = await newSpace();
    const space = `/v1/spaces/${spaceId}`;
    expectError(await raw(t, 'GET', space, { token: guest.token }), 404);

    const grant = await raw(t, 'POST', `${space}/permissions`, {
      token: admin(),
      body: { role: 'read', users: [guest.id] },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(204);
    expect((await raw(t, 'GET', space, { token: guest.token })).status).toBe(200);
    const users = await listed(`${space}/permissions/users`, 'listUserPermissionsInSpace');
    expect(users.items.map((i) => [i.user!.id, i.permission])).toEqual([[guest.id, 'read']]);

    // Raised to edit: the guest's space object says so.
    const patch = await raw(t, 'PATCH', `${space}/permissions/users/${guest.id}`, {
      token: admin(),
      body: { role: 'edit' },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(204);
    const seen = await raw(t, 'GET', space, { token: guest.token });
    expect((seen.body as { permissions: { edit: boolean } }).permissions.edit).toBe(true);

    expect((await raw(t, 'DELETE', `${space}/permissions/users/${guest.id}`, { token: admin() })).status).toBe(205);
    expect((await raw(t, 'DELETE', `${space}/permissions/users/${guest.id}`, { token: admin() })).status).toBe(204);
    expectError(await raw(t, 'GET', space, { token: guest.token }), 404);
    expect((await listed(`${space}/permissions/users`, 'listUserPermissionsInSpace')).count).toBe(0);
  });

  it('grants through a team, and a null role withdraws it', async () => {
    const spaceId = await newSpace();
    const space = `/v1/spaces/${spaceId}`;
    const team = await must('PUT', `/v1/orgs/${orgId}/teams`, { title: 'Guests team', members: [guest2.id] });
    expect(
      (await raw(t, 'POST', `${space}/permissions`, { token: admin(), body: { role: 'comment', teams: [team.id] } }))
        .status,
    ).toBe(204);
    expect((await raw(t, 'GET', space, { token: guest2.token })).status).toBe(200);
    const teams = await listed(`${space}/permissions/teams`, 'listTeamPermissionsInSpace');
    expect(teams.items.map((i) => [i.team!.id, i.permission])).toEqual([[team.id, 'comment']]);

    const withdraw = await raw(t, 'PATCH', `${space}/permissions/teams/${team.id}`, {
      token: admin(),
      body: { role: null },
    });
    expect(withdraw.status).toBe(204);
    expectError(await raw(t, 'GET', space, { token: guest2.token }), 404);
  });

  it('refuses bad roles, unknown users and teams, non-admins and strangers', async () => {
    const spaceId = await newSpace();
    const perms = `/v1/spaces/${spaceId}/permissions`;
    expectError(await raw(t, 'POST', perms, { token: admin(), body: { role: 'owner', users: [guest.id] } }), 400);
    expectError(await raw(t, 'POST', perms, { token: admin(), body: { role: 'read' } }), 400);
    expectError(await raw(t, 'PATCH', `${perms}/users/${guest.id}`, { token: admin(), body: { role: 'boss' } }), 400);
    expectError(
      await raw(t, 'PATCH', `${perms}/users/${stranger.id}`, { token: admin(), body: { role: 'read' } }),
      404,
    );
    expectError(await raw(t, 'PATCH', `${perms}/teams/no-such-team`, { token: admin(), body: { role: 'read' } }), 404);
    expectError(
      await raw(t, 'POST', perms, { token: admin(), body: { role: 'read', users: [guest.id, stranger.id] } }),
      404,
    );
    // All or none: the guest was not granted either.
    expect((await listed(`${perms}/users`, 'listUserPermissionsInSpace')).count).toBe(0);

    // A reader sees the list but may not change it; a stranger sees nothing.
    expect((await listed(`${perms}/users`, 'listUserPermissionsInSpace', reader.token)).count).toBe(0);
    expectError(await raw(t, 'POST', perms, { token: reader.token, body: { role: 'read', users: [guest.id] } }), 403);
    expectError(await raw(t, 'DELETE', `${perms}/users/${guest.id}`, { token: reader.token }), 403);
    expectError(await raw(t, 'GET', `${perms}/users`, { token: stranger.token }), 404);
    expectError(await raw(t, 'GET', `/v1/spaces/no-such-space/permissions/users`, { token: admin() }), 404);
    for (const base of ['/v1/spaces/no-such-space', '/v1/collections/no-such-collection']) {
      expectError(
        await raw(t, 'PATCH', `${base}/permissions/teams/x`, { token: admin(), body: { role: 'read' } }),
        404,
      );
      expectError(
        await raw(t, 'POST', `${base}/permissions`, { token: admin(), body: { role: 'read', users: ['x'] } }),
        404,
      );
      expect((await raw(t, 'DELETE', `${base}/permissions/users/x`, { token: admin() })).status).toBe(204);
    }
    // A DELETE where the caller sees nothing is a quiet 204.
    expect((await raw(t, 'DELETE', `${perms}/users/${guest.id}`, { token: stranger.token })).status).toBe(204);
  });
});

describe('collection permissions', () => {
  it('a grant on a collection opens its spaces to a guest', async () => {
    const collection = await must('POST', `/v1/orgs/${orgId}/collections`, { title: 'Shelf' });
    const space = await must('POST', `/v1/orgs/${orgId}/spaces`, { title: 'On the shelf', parent: collection.id });
    expectError(await raw(t, 'GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
    const perms = `/v1/collections/${collection.id}/permissions`;
    expect((await raw(t, 'POST', perms, { token: admin(), body: { role: 'read', users: [guest.id] } })).status).toBe(
      204,
    );
    expect((await raw(t, 'GET', `/v1/spaces/${space.id}`, { token: guest.token })).status).toBe(200);
    const users = await listed(`${perms}/users`, 'listUserPermissionsInCollection');
    expect(users.items.map((i) => i.user!.id)).toEqual([guest.id]);
    expect((await listed(`${perms}/teams`, 'listTeamPermissionsInCollection')).count).toBe(0);
    expect((await raw(t, 'DELETE', `${perms}/users/${guest.id}`, { token: admin() })).status).toBe(205);
    expectError(await raw(t, 'GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
  });
});
