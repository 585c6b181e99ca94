import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../renderer/src/api/client';
import type { Member, SpaceSummary, Team } from '../../renderer/src/org/org-api';
import { combineStates } from '../../renderer/src/org/components/combine-states';
import {
  createSpace,
  removeGrant,
  removeMember,
  revokeCredential,
  saveOrgSettings,
  setMemberRole,
  setTeamMembership,
} from '../../renderer/src/stores/org-writes';
import { Stores } from '../../renderer/src/stores/stores';

/**
 * The organization screens' writes keep every store that holds what they changed up to date (so
 * every screen showing it follows without a reload): checked against a fake API that answers as
 * the server does and counts the reads.
 */

type Handler = (body: unknown) => unknown;

function fakeApi(routes: Record<string, Handler>) {
  const calls: string[] = [];
  const api = {
    serverUrl: 'http://folio.test',
    async request<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
      const key = `${options.method ?? 'GET'} ${path}`;
      calls.push(key);
      const handler = routes[key];
      if (!handler) throw new Error(`unexpected ${key}`);
      return handler(options.body) as T;
    },
  };
  return { api: api as unknown as ApiClient, calls };
}

const list = <T>(items: T[]) => ({ items });
const member = (id: string, role: Member['role']): Member => ({
  id,
  role,
  user: { id, displayName: id },
  joinedAt: '2026-01-01T00:00:00Z',
  teams: 0,
});
const org = (title: string) => ({
  id: 'o1',
  title,
  defaultRole: 'read',
  inviteLinks: true,
  urls: { app: '' },
  permissions: { admin: true, view: true, createContent: true, listMembers: true, listTeams: true },
});

describe('organization writes', () => {
  it('saving the settings puts the answer in the organization and the picker list', async () => {
    const { api, calls } = fakeApi({
      'GET /orgs/o1': () => org('Old'),
      'GET /orgs': () => list([{ id: 'o1', title: 'Old' }]),
      'PATCH /orgs/o1': (body) => org((body as { title: string }).title),
    });
    const stores = new Stores(api);
    await stores.org.get('o1');
    await stores.orgs.get('mine');
    await saveOrgSettings(stores, 'o1', { title: 'New', defaultRole: 'read', inviteLinks: true });
    expect(stores.org.peek('o1')?.title).toBe('New');
    expect(stores.orgs.peek('mine')?.[0]?.title).toBe('New');
    expect(calls.filter((c) => c.startsWith('GET'))).toEqual(['GET /orgs/o1', 'GET /orgs']);
  });

  it('a new space joins the organization’s list without a read', async () => {
    const space: SpaceSummary = {
      id: 's2',
      title: 'Guide',
      emoji: '',
      parent: 'c1',
      defaultLevel: 'inherit',
      urls: { app: '' },
      permissions: { admin: true, edit: true, viewInviteLinks: true },
    };
    const { api, calls } = fakeApi({
      'GET /orgs/o1/spaces': () => list([{ ...space, id: 's1', parent: undefined }]),
      'POST /orgs/o1/spaces': () => space,
    });
    const stores = new Stores(api);
    await stores.orgSpaces.get('o1');
    await createSpace(stores, 'o1', 'Guide', 'c1');
    expect(stores.orgSpaces.peek('o1')?.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(calls).toEqual(['GET /orgs/o1/spaces', 'POST /orgs/o1/spaces']);
  });

  it('a role change and a removal update the member list in place', async () => {
    const { api } = fakeApi({
      'GET /orgs/o1/members': () => list([member('u1', 'read'), member('u2', 'read')]),
      'PATCH /orgs/o1/members/u1': () => member('u1', 'edit'),
      'DELETE /orgs/o1/members/u2': () => undefined,
    });
    const stores = new Stores(api);
    await stores.orgMembers.get('o1');
    await setMemberRole(stores, 'o1', 'u1', 'edit');
    await removeMember(stores, 'o1', 'u2', false);
    expect(stores.orgMembers.peek('o1')?.map((m) => [m.id, m.role])).toEqual([['u1', 'edit']]);
  });

  it('a team membership change reloads the team’s members and its count where shown', async () => {
    let members = 1;
    const team = (): Team => ({ id: 't1', title: 'T', members, spaces: 0, permissions: { admin: true, view: true } });
    const { api } = fakeApi({
      'GET /orgs/o1/teams': () => list([team()]),
      'GET /orgs/o1/teams/t1/members': () => list([]),
      'PUT /orgs/o1/teams/t1/members/u2': () => {
        members = 2;
        return undefined;
      },
    });
    const stores = new Stores(api);
    // Shown on a screen: an invalidation reloads it at once.
    const stop = stores.orgTeams.subscribe('o1', () => undefined);
    await stores.orgTeams.get('o1');
    await setTeamMembership(stores, 'o1', 't1', 'u2', true);
    await expect.poll(() => stores.orgTeams.peek('o1')?.[0]?.members).toBe(2);
    stop();
  });

  it('revoking a credential or a grant takes it out of its list', async () => {
    const { api } = fakeApi({
      'GET /user/tokens': () =>
        list([
          { id: 'a', current: true },
          { id: 'b', current: false },
        ]),
      'DELETE /user/tokens/b': () => undefined,
      'GET /spaces/s1/permissions/users': () => list([{ permission: 'read', user: { id: 'u1', displayName: 'U' } }]),
      'GET /spaces/s1/permissions/teams': () => list([]),
      'DELETE /spaces/s1/permissions/users/u1': () => undefined,
    });
    const stores = new Stores(api);
    await stores.credentials.get('mine');
    await revokeCredential(stores, 'b');
    expect(stores.credentials.peek('mine')?.map((c) => c.id)).toEqual(['a']);
    await stores.accessGrants.get({ space: 's1' });
    await removeGrant(stores, { space: 's1' }, 'users', 'u1');
    expect(stores.accessGrants.peek({ space: 's1' })).toEqual({ users: [], teams: [] });
  });
});

describe('combineStates', () => {
  it('is ready with both, failed with either, and keeps both values while reloading', () => {
    expect(combineStates({ status: 'ready', data: 1 }, { status: 'ready', data: 'a' })).toEqual({
      status: 'ready',
      data: [1, 'a'],
    });
    expect(combineStates({ status: 'ready', data: 1 }, { status: 'error', error: 'x' })).toEqual({
      status: 'error',
      error: 'x',
    });
    expect(combineStates({ status: 'loading', data: 1 }, { status: 'ready', data: 'a' })).toEqual({
      status: 'loading',
      data: [1, 'a'],
    });
    expect(combineStates({ status: 'loading' }, { status: 'ready', data: 'a' })).toEqual({ status: 'loading' });
  });
});
