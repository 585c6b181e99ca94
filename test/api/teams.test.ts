import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../sync-server/http/ids';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { addMember, newMember } from '../helpers/members';

let t: TestServer;
let orgId: string;
let otherOrgId: string;
let admin2: TestUser;
let editor: TestUser;
let reader: TestUser;
let guest: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Teams Org' }), 201)).id;
  otherOrgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Other Org' }), 201)).id;
  admin2 = await newMember(t, orgId, 'admin', 'Second Admin');
  editor = await newMember(t, orgId, 'edit', 'Eddie Editor');
  reader = await newMember(t, orgId, 'read', 'Rita Reader');
  guest = await newMember(t, orgId, null, 'Gus Guest');
  stranger = await newUser(t, 'Stan Stranger');
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.server.ctx.db;

/** Team ownership has no API in the spec: owners are set in the database. */
async function makeOwner(teamId: string, userId: string): Promise<void> {
  await db().query(
    'INSERT INTO team_members (team_id, user_id, is_owner) VALUES ($1, $2, true) ON CONFLICT (team_id, user_id) DO UPDATE SET is_owner = true',
    [teamId, userId],
  );
}

/** A space row and a grant on it to a team (the spaces/permissions APIs are other modules). */
async function grantSpace(
  organizationId: string,
  teamId: string,
  options: { trashed?: boolean } = {},
): Promise<string> {
  const spaceId = newId();
  await db().query(
    'INSERT INTO spaces (id, organization_id, title, position, revision, deleted_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [spaceId, organizationId, 'Granted space', 'a0', newId(), options.trashed ? new Date() : null],
  );
  await db().query(
    "INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role) VALUES ('space', $1, 'team', $2, 'edit')",
    [spaceId, teamId],
  );
  return spaceId;
}

describe('teams', () => {
  it('creates, reads, lists, renames and deletes a team', async () => {
    const team = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'Writers', members: [editor.id, reader.id, editor.id] }),
      201,
    );
    expect(team).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });

    const got = await ok('getTeamInOrganizationById', t.client.orgs.getTeamInOrganizationById(orgId, team.id));
    expect(got).toEqual(team);

    const list = await ok('listTeamsInOrganizationById', t.client.orgs.listTeamsInOrganizationById(orgId));
    expect(list.items.map((x) => x.id)).toContain(team.id);

    const renamed = await ok(
      'updateTeamInOrganizationById',
      t.client.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Authors' }),
    );
    expect(renamed).toMatchObject({ id: team.id, title: 'Authors', members: 2, createdAt: team.createdAt });

    await ok('removeTeamFromOrganizationById', t.client.orgs.removeTeamFromOrganizationById(orgId, team.id), 204);
    await ok('removeTeamFromOrganizationById', t.client.orgs.removeTeamFromOrganizationById(orgId, team.id), 204);
    await fails(t.client.orgs.getTeamInOrganizationById(orgId, team.id), 404);
    const res = await raw(t, 'PUT', `/v1/orgs/${orgId}/teams`, { token: t.adminToken, body: { title: 'Located' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${t.url}/v1/orgs/${orgId}/teams/${(res.body as { id: string }).id}`);
  });

  it('counts granted spaces and removes the grants with the team', async () => {
    const team = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'Granted' }),
      201,
    );
    expect(team.members).toBe(0);
    await grantSpace(orgId, team.id);
    await grantSpace(orgId, team.id);
    await grantSpace(orgId, team.id, { trashed: true });
    const got = await ok('getTeamInOrganizationById', t.client.orgs.getTeamInOrganizationById(orgId, team.id));
    expect(got.spaces).toBe(2);

    await ok('removeTeamFromOrganizationById', t.client.orgs.removeTeamFromOrganizationById(orgId, team.id), 204);
    const left = await db().query(
      "SELECT 1 FROM content_permissions WHERE principal_type = 'team' AND principal_id = $1",
      [team.id],
    );
    expect(left).toHaveLength(0);
  });

  it('filters by title and by owner', async () => {
    const org = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Filter Org' }), 201)).id;
    const member = await newMember(t, org, 'edit', 'Olive Owner');
    const docs = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(org, { title: 'Docs Crew', members: [member.id] }),
      201,
    );
    const api = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(org, { title: 'API docs' }),
      201,
    );
    await ok('createOrganizationTeam', t.client.orgs.createOrganizationTeam(org, { title: '100%_match' }), 201);
    await makeOwner(api.id, member.id);

    const byTitle = await ok(
      'listTeamsInOrganizationById',
      t.client.orgs.listTeamsInOrganizationById(org, { title: 'DOCS' }),
    );
    expect(byTitle.items.map((x) => x.title).sort()).toEqual(['API docs', 'Docs Crew']);
    expect(byTitle.count).toBe(2);
    // LIKE wildcards in the filter are plain text.
    const literal = await ok(
      'listTeamsInOrganizationById',
      t.client.orgs.listTeamsInOrganizationById(org, { title: '%_' }),
    );
    expect(literal.items.map((x) => x.title)).toEqual(['100%_match']);

    const owned = await ok(
      'listTeamsInOrganizationById',
      t.client.orgs.listTeamsInOrganizationById(org, { owner: member.id }),
    );
    expect(owned.items.map((x) => x.id)).toEqual([api.id]);
    const ownedDocs = await ok(
      'listTeamsInOrganizationById',
      t.client.orgs.listTeamsInOrganizationById(org, { owner: member.id, title: 'crew' }),
    );
    expect(ownedDocs).toEqual({ items: [], count: 0 });

    // The member sees their ownership in the permissions of each team.
    const asMember = await ok(
      'listTeamsInOrganizationById',
      t.clientFor(member.token).orgs.listTeamsInOrganizationById(org),
    );
    const perms = Object.fromEntries(asMember.items.map((x) => [x.id, x.permissions]));
    expect(perms[api.id]).toEqual({ admin: true, view: true });
    expect(perms[docs.id]).toEqual({ admin: false, view: true });
  });

  it('pages with a cursor', async () => {
    const org = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Paging Org' }), 201)).id;
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push(
        (await ok('createOrganizationTeam', t.client.orgs.createOrganizationTeam(org, { title: `Team ${i}` }), 201)).id,
      );
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await ok(
        'listTeamsInOrganizationById',
        t.client.orgs.listTeamsInOrganizationById(org, { limit: 2, ...(page ? { page } : {}) }),
      );
      expect(res.count).toBe(5);
      expect(res.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.items.map((x) => x.id));
      page = res.next?.page;
    } while (page);
    // Creation order; teams made in the same millisecond are ordered by id, so compare as sets.
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual([...created].sort());
    expectError(await raw(t, 'GET', `/v1/orgs/${org}/teams?limit=1001`, { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${org}/teams?page=garbage`, { token: t.adminToken }), 400);
    const past = Buffer.from(JSON.stringify({ o: 50 })).toString('base64url');
    const beyond = await ok(
      'listTeamsInOrganizationById',
      t.client.orgs.listTeamsInOrganizationById(org, { page: past }),
    );
    expect(beyond).toEqual({ items: [], count: 5 });
  });

  it("lists a member's teams with their role in each", async () => {
    const org = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Member Teams Org' }), 201))
      .id;
    const alice = await newMember(t, org, 'edit', 'Alice');
    const bob = await newMember(t, org, 'read', 'Bob');
    const alpha = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(org, { title: 'Alpha', members: [alice.id, bob.id] }),
      201,
    );
    const beta = await ok('createOrganizationTeam', t.client.orgs.createOrganizationTeam(org, { title: 'Beta' }), 201);
    await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(org, { title: 'Gamma', members: [bob.id] }),
      201,
    );
    await makeOwner(beta.id, alice.id);

    const own = await ok(
      'listTeamsForOrganizationMember',
      t.clientFor(alice.token).orgs.listTeamsForOrganizationMember(org, alice.id),
    );
    expect(own.count).toBe(2);
    const roles = Object.fromEntries(own.items.map((x) => [x.team.id, x.member.role]));
    expect(roles).toEqual({ [alpha.id]: 'member', [beta.id]: 'owner' });
    expect(own.items.find((x) => x.team.id === beta.id)!.team).toMatchObject({
      members: 1,
      permissions: { admin: true, view: true },
    });

    const byAdmin = await ok(
      'listTeamsForOrganizationMember',
      t.client.orgs.listTeamsForOrganizationMember(org, alice.id, { title: 'BET' }),
    );
    expect(byAdmin.items.map((x) => x.team.title)).toEqual(['Beta']);

    const paged = await ok(
      'listTeamsForOrganizationMember',
      t.client.orgs.listTeamsForOrganizationMember(org, bob.id, { limit: 1 }),
    );
    expect(paged.items).toHaveLength(1);
    expect(paged.count).toBe(2);
    const rest = await ok(
      'listTeamsForOrganizationMember',
      t.client.orgs.listTeamsForOrganizationMember(org, bob.id, { limit: 1, page: paged.next!.page }),
    );
    expect(rest.next).toBeUndefined();
    expect([...paged.items, ...rest.items].map((x) => x.team.title).sort()).toEqual(['Alpha', 'Gamma']);

    await fails(t.clientFor(bob.token).orgs.listTeamsForOrganizationMember(org, alice.id), 403);
    await fails(t.clientFor(stranger.token).orgs.listTeamsForOrganizationMember(org, alice.id), 404);
    await fails(t.client.orgs.listTeamsForOrganizationMember(org, stranger.id), 404);
    expectError(await raw(t, 'GET', `/v1/orgs/${org}/members/${alice.id}/teams`), 401);
  });

  it('rejects invalid input', async () => {
    const put = (body: unknown) => raw(t, 'PUT', `/v1/orgs/${orgId}/teams`, { token: t.adminToken, body });
    expectError(await put({ title: '' }), 400);
    expectError(await put({ title: '   ' }), 400);
    expectError(await put({ title: 'x'.repeat(65) }), 400);
    expectError(await put({}), 400);
    expectError(await put({ title: 'Extra', color: 'red' }), 400);
    expectError(await put({ title: 'Typed', members: 'nope' }), 400);
    await fails(t.client.orgs.createOrganizationTeam(orgId, { title: 'x'.repeat(65) }), 400);
    await fails(t.client.orgs.createOrganizationTeam(orgId, { title: '' }), 400);
    expectError(await put({ title: 'Unknown member', members: [editor.id, 'nobody123'] }), 400, /nobody123/);
    expectError(await put({ title: 'Stranger member', members: [stranger.id] }), 400, new RegExp(stranger.id));
    const max = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'y'.repeat(64) }),
      201,
    );
    expect(max.title).toHaveLength(64);

    const patch = (body: unknown) =>
      raw(t, 'PATCH', `/v1/orgs/${orgId}/teams/${max.id}`, { token: t.adminToken, body });
    expectError(await patch({}), 400);
    expectError(await patch({ title: '' }), 400);
    expectError(await patch({ title: 'z'.repeat(65) }), 400);
    expectError(await patch({ title: 'Ok', members: [] }), 400);
    await fails(t.client.orgs.updateTeamInOrganizationById(orgId, max.id, { title: '' }), 400);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/teams?title=${'q'.repeat(65)}`, { token: t.adminToken }), 400);
  });

  it('enforces roles: admins manage, owners rename, members read, guests and strangers cannot', async () => {
    const team = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(orgId, { title: 'Guarded', members: [editor.id] }),
      201,
    );
    await makeOwner(team.id, reader.id);

    // Another admin manages teams.
    const byAdmin2 = await ok(
      'createOrganizationTeam',
      t.clientFor(admin2.token).orgs.createOrganizationTeam(orgId, { title: 'By second admin' }),
      201,
    );
    expect(byAdmin2.members).toBe(0);

    // Full members below admin: can read, cannot create, rename (unless owner) or delete.
    await fails(t.clientFor(editor.token).orgs.createOrganizationTeam(orgId, { title: 'Nope' }), 403);
    const seen = await ok(
      'getTeamInOrganizationById',
      t.clientFor(editor.token).orgs.getTeamInOrganizationById(orgId, team.id),
    );
    expect(seen.permissions).toEqual({ admin: false, view: true });
    await ok('listTeamsInOrganizationById', t.clientFor(editor.token).orgs.listTeamsInOrganizationById(orgId));
    await fails(t.clientFor(editor.token).orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Renamed' }), 403);
    await fails(t.clientFor(editor.token).orgs.removeTeamFromOrganizationById(orgId, team.id), 403);

    // An owner of the team (a reader in the organization) may rename it, not delete it.
    const renamed = await ok(
      'updateTeamInOrganizationById',
      t.clientFor(reader.token).orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Renamed by owner' }),
    );
    expect(renamed.permissions).toEqual({ admin: true, view: true });
    await fails(
      t.clientFor(reader.token).orgs.updateTeamInOrganizationById(orgId, byAdmin2.id, { title: 'Not mine' }),
      403,
    );
    await fails(t.clientFor(reader.token).orgs.removeTeamFromOrganizationById(orgId, team.id), 403);

    // Guests cannot see teams.
    await fails(t.clientFor(guest.token).orgs.listTeamsInOrganizationById(orgId), 403);
    await fails(t.clientFor(guest.token).orgs.getTeamInOrganizationById(orgId, team.id), 403);
    await fails(t.clientFor(guest.token).orgs.createOrganizationTeam(orgId, { title: 'Nope' }), 403);
    const guestOwn = await ok(
      'listTeamsForOrganizationMember',
      t.clientFor(guest.token).orgs.listTeamsForOrganizationMember(orgId, guest.id),
    );
    expect(guestOwn).toEqual({ items: [], count: 0 });

    // Strangers learn nothing.
    const s = t.clientFor(stranger.token).orgs;
    await fails(s.listTeamsInOrganizationById(orgId), 404);
    await fails(s.getTeamInOrganizationById(orgId, team.id), 404);
    await fails(s.createOrganizationTeam(orgId, { title: 'Nope' }), 404);
    await fails(s.updateTeamInOrganizationById(orgId, team.id, { title: 'Nope' }), 404);
    // DELETE of what a stranger cannot see is the quiet 204 of a missing resource, and removes nothing.
    expect((await s.removeTeamFromOrganizationById(orgId, team.id)).status).toBe(204);
    await ok('getTeamInOrganizationById', t.client.orgs.getTeamInOrganizationById(orgId, team.id));

    // Unknown ids, and a team addressed through another organization.
    await fails(t.client.orgs.getTeamInOrganizationById(orgId, 'noSuchTeam'), 404);
    await fails(t.client.orgs.updateTeamInOrganizationById(orgId, 'noSuchTeam', { title: 'X' }), 404);
    await fails(t.client.orgs.getTeamInOrganizationById(otherOrgId, team.id), 404);
    await fails(t.client.orgs.updateTeamInOrganizationById(otherOrgId, team.id, { title: 'X' }), 404);
    await ok('removeTeamFromOrganizationById', t.client.orgs.removeTeamFromOrganizationById(otherOrgId, team.id), 204);
    await ok('getTeamInOrganizationById', t.client.orgs.getTeamInOrganizationById(orgId, team.id));
    await fails(t.client.orgs.listTeamsInOrganizationById('noSuchOrg'), 404);
  });

  it('keeps counts right when a member leaves the organization', async () => {
    const org = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Leaving Org' }), 201)).id;
    const user = await newUser(t, 'Leaving User');
    await addMember(t, org, user, 'read');
    const team = await ok(
      'createOrganizationTeam',
      t.client.orgs.createOrganizationTeam(org, { title: 'Leavers', members: [user.id] }),
      201,
    );
    expect(team.members).toBe(1);
    await db().query('DELETE FROM members WHERE organization_id = $1 AND user_id = $2', [org, user.id]);
    const after = await ok('getTeamInOrganizationById', t.client.orgs.getTeamInOrganizationById(org, team.id));
    expect(after.members).toBe(0);
  });

  it('requires a valid token', async () => {
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/teams`), 401);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/teams`, { token: 'wrong-token' }), 401);
    expectError(await raw(t, 'PUT', `/v1/orgs/${orgId}/teams`, { body: { title: 'X' } }), 401);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/teams/abc`), 401);
    expectError(await raw(t, 'PATCH', `/v1/orgs/${orgId}/teams/abc`, { body: { title: 'X' } }), 401);
    expectError(await raw(t, 'DELETE', `/v1/orgs/${orgId}/teams/abc`), 401);
    expectError(await raw(t, 'DELETE', `/v1/orgs/${orgId}/teams/abc`, { token: 'wrong-token' }), 401);
  });
});
