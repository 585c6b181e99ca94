import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, newUser, ok, raw, type TestUser } from '../helpers/api';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { newMember } from '../helpers/members';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

let t: TestServer;
let orgId: string;
let editor: TestUser;
let reader: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Team Members Org' }), 201)).id;
  editor = await newMember(t, orgId, 'edit', 'Ed Member');
  reader = await newMember(t, orgId, 'read', 'Rae Member');
  stranger = await newUser(t, 'Sam Stranger');
});
const clients = new SyncClients();
afterEach(() => clients.destroyAll());
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

const teamPath = (teamId: string) => `/v1/orgs/${orgId}/teams/${teamId}`;

async function newTeam(members: string[] = []): Promise<string> {
  const res = await raw(t, 'PUT', `/v1/orgs/${orgId}/teams`, { token: t.adminToken, body: { title: 'Crew', members } });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

type Listed = { items: { organization: { id: string }; team: { role: string } }[]; count: number };

async function listMembers(teamId: string, token = t.adminToken): Promise<Listed> {
  const res = await raw(t, 'GET', `${teamPath(teamId)}/members`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  assertMatchesGitBook('listTeamMembersInOrganizationById', 200, res.body);
  return res.body as Listed;
}

describe('team members', () => {
  it('lists, adds by id and email, sets owners, and removes members', async () => {
    const teamId = await newTeam([editor.id]);
    expect((await listMembers(teamId)).items.map((i) => [i.organization.id, i.team.role])).toEqual([
      [editor.id, 'member'],
    ]);

    const put = await raw(t, 'PUT', `${teamPath(teamId)}/members`, {
      token: t.adminToken,
      body: { add: [reader.email.toUpperCase()], memberships: { [editor.id]: { role: 'owner' } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(204);
    const after = await listMembers(teamId);
    expect(after.count).toBe(2);
    expect(Object.fromEntries(after.items.map((i) => [i.organization.id, i.team.role]))).toEqual({
      [editor.id]: 'owner',
      [reader.id]: 'member',
    });
    // The team's own count follows.
    const team = await raw(t, 'GET', teamPath(teamId), { token: t.adminToken });
    expect((team.body as { members: number }).members).toBe(2);

    // Added and removed at once: removed.
    const both = await raw(t, 'PUT', `${teamPath(teamId)}/members`, {
      token: t.adminToken,
      body: { add: [reader.id], remove: [reader.id] },
    });
    expect(both.status).toBe(204);
    expect((await listMembers(teamId)).items.map((i) => i.organization.id)).toEqual([editor.id]);
  });

  it('adds one member with a role, and removes them (205, then 204)', async () => {
    const teamId = await newTeam();
    const add = await raw(t, 'PUT', `${teamPath(teamId)}/members/${reader.id}`, {
      token: t.adminToken,
      body: { role: 'owner' },
    });
    expect(add.status, JSON.stringify(add.body)).toBe(204);
    expect((await listMembers(teamId)).items.map((i) => i.team.role)).toEqual(['owner']);

    // Without a body: a plain member (the role is changed back).
    expect((await raw(t, 'PUT', `${teamPath(teamId)}/members/${reader.id}`, { token: t.adminToken })).status).toBe(204);
    expect((await listMembers(teamId)).items.map((i) => i.team.role)).toEqual(['member']);

    expect((await raw(t, 'DELETE', `${teamPath(teamId)}/members/${reader.id}`, { token: t.adminToken })).status).toBe(
      205,
    );
    expect((await raw(t, 'DELETE', `${teamPath(teamId)}/members/${reader.id}`, { token: t.adminToken })).status).toBe(
      204,
    );
    expect((await listMembers(teamId)).count).toBe(0);
  });

  it('a team owner manages their team; other members may only look', async () => {
    const teamId = await newTeam();
    await raw(t, 'PUT', `${teamPath(teamId)}/members/${reader.id}`, { token: t.adminToken, body: { role: 'owner' } });
    // The owner (a reader in the organization) adds the editor.
    const byOwner = await raw(t, 'PUT', `${teamPath(teamId)}/members/${editor.id}`, { token: reader.token });
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(204);
    // The editor, a plain team member, may list but not change.
    expect((await listMembers(teamId, editor.token)).count).toBe(2);
    expectError(await raw(t, 'DELETE', `${teamPath(teamId)}/members/${reader.id}`, { token: editor.token }), 403);
    expectError(
      await raw(t, 'PUT', `${teamPath(teamId)}/members`, { token: editor.token, body: { remove: [reader.id] } }),
      403,
    );
    expect((await listMembers(teamId)).count).toBe(2);
  });

  it('a guest removed from a team granted a space loses it: REST and the open socket (4404)', async () => {
    const guest = await newMember(t, orgId, null, 'Gus Teamguest');
    const teamId = await newTeam([guest.id]);
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Team space' })).data.id;
    const grant = await raw(t, 'POST', `/v1/spaces/${spaceId}/permissions`, {
      token: t.adminToken,
      body: { role: 'read', teams: [teamId] },
    });
    expect(grant.status).toBe(204);
    expect((await raw(t, 'GET', `/v1/spaces/${spaceId}`, { token: guest.token })).status).toBe(200);
    const socket = clients.connect(t.url, spaceId, guest.token);
    await synced(socket);

    expect((await raw(t, 'DELETE', `${teamPath(teamId)}/members/${guest.id}`, { token: t.adminToken })).status).toBe(
      205,
    );
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}`, { token: guest.token }), 404);
    await waitFor(() => socket.closes.some((c) => c.code === CloseCode.notFound), 10_000, 'the socket to close');
  });

  it('refuses unknown teams and users, strangers and bad bodies', async () => {
    const teamId = await newTeam();
    expectError(await raw(t, 'GET', `${teamPath('no-such-team')}/members`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'PUT', `${teamPath('no-such-team')}/members/${reader.id}`, { token: t.adminToken }), 404);
    // Not a member of the organization.
    expectError(await raw(t, 'PUT', `${teamPath(teamId)}/members/${stranger.id}`, { token: t.adminToken }), 404);
    expectError(
      await raw(t, 'PUT', `${teamPath(teamId)}/members`, { token: t.adminToken, body: { add: [stranger.email] } }),
      400,
      /not a member/,
    );
    expectError(
      await raw(t, 'PUT', `${teamPath(teamId)}/members/${reader.id}`, { token: t.adminToken, body: { role: 'boss' } }),
      400,
    );
    expectError(
      await raw(t, 'PUT', `${teamPath(teamId)}/members`, { token: t.adminToken, body: { add: 'not-a-list' } }),
      400,
    );
    // Someone outside the organization cannot see the team at all.
    expectError(await raw(t, 'GET', `${teamPath(teamId)}/members`, { token: stranger.token }), 404);
    expectError(await raw(t, 'PUT', `${teamPath(teamId)}/members/${reader.id}`, { token: stranger.token }), 404);
    // A DELETE where there is nothing (unknown team, or a caller outside the organization) is a quiet 204.
    expect(
      (await raw(t, 'DELETE', `${teamPath('no-such-team')}/members/${reader.id}`, { token: t.adminToken })).status,
    ).toBe(204);
    expect((await raw(t, 'DELETE', `${teamPath(teamId)}/members/${reader.id}`, { token: stranger.token })).status).toBe(
      204,
    );
    expect((await listMembers(teamId)).count).toBe(0);
  });
});
