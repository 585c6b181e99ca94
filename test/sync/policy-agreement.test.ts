import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, type SyncAddress } from '../../shared/sync-contract';
import { decideChangeRequest, type ChangeRequestStatus } from '../../sync-server/policy/change-request';
import type { Role } from '../../sync-server/policy/roles';
import { newUser, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { socketOutcome } from '../helpers/authz-sockets';
import { startTestServer, type TestServer } from '../helpers/server';
import { SyncClients } from '../helpers/sync-clients';

/**
 * REST and the sync socket ask the same policy, so they must agree for every
 * role and every state: a space REST hides (404) refuses the upgrade (404);
 * a socket write is accepted exactly when the Space's `permissions.edit` says
 * so; a comment can be posted exactly when `permissions.comment` says so; a
 * change request's fork takes writes exactly when policy's `edit-content`
 * allows (draft and open, even in a locked space), and discussions never take
 * socket writes. Every cell is exercised through the real endpoints.
 */

type Caller = 'outsider' | 'guest' | Role;
const CALLERS: Caller[] = ['outsider', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'];
type SpaceState = 'live' | 'locked' | 'deleted';

let t: TestServer;
let orgId: string;
const users = new Map<Caller, TestUser>();
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Agreement Org' })).data.id;
  for (const caller of CALLERS) {
    if (caller === 'outsider') {
      const outsider = await newUser(t, 'Outsider');
      await t.clientFor(outsider.token).orgs.createOrganization({ title: 'Elsewhere' });
      users.set(caller, outsider);
    } else {
      users.set(caller, await newMember(t, orgId, caller === 'guest' ? null : caller, `Member ${caller}`));
    }
  }
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

async function spaceIn(state: SpaceState): Promise<string> {
  const id = (await t.client.orgs.createSpace(orgId, { title: `A ${state} space` })).data.id;
  if (state === 'locked') await t.client.spaces.updateSpaceById(id, { editMode: 'locked' as never });
  if (state === 'deleted') await t.client.spaces.deleteSpaceById(id);
  return id;
}

/** What the socket does with one write from `token` to `address` ('hidden' when the upgrade is refused with 404). */
async function socketWrite(address: SyncAddress, token: string): Promise<'hidden' | 'accepted' | number> {
  const outcome = await socketOutcome(t, clients, address, token);
  return outcome === 404 ? 'hidden' : outcome;
}

describe.each<SpaceState>(['live', 'locked', 'deleted'])('a %s space', (state) => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await spaceIn(state);
  });

  it.each(CALLERS)('REST and the socket agree for %s', async (caller) => {
    const token = users.get(caller)!.token;
    const rest = await raw(t, 'GET', `/v1/spaces/${spaceId}`, { token });
    const content = await socketWrite({ spaceId, kind: 'content' }, token);
    if (rest.status === 404) {
      expect(content).toBe('hidden');
      expect(await socketWrite({ spaceId, kind: 'discussion' }, token)).toBe('hidden');
      return;
    }
    expect(rest.status).toBe(200);
    const permissions = (rest.body as { permissions: { edit: boolean; comment: boolean } }).permissions;
    // The refusal names the first rule that failed: the trash, then the role, then the lock.
    const canEdit = ['edit', 'review', 'create', 'admin'].includes(caller);
    const refusal =
      state === 'deleted' ? CloseCode.deleted : state === 'locked' && canEdit ? CloseCode.locked : CloseCode.readOnly;
    expect(content).toBe(permissions.edit ? 'accepted' : refusal);
    // Discussions are written through REST only, whatever the role.
    expect(await socketWrite({ spaceId, kind: 'discussion' }, token)).toBe(CloseCode.readOnly);
    const posted = await raw(t, 'POST', `/v1/spaces/${spaceId}/comments`, {
      token,
      body: { body: { markdown: 'hi' } },
    });
    expect(posted.status === 200, `POST comment answered ${posted.status}`).toBe(permissions.comment);
  });
});

describe.each<ChangeRequestStatus | 'open in a locked space'>(['open', 'merged', 'archived', 'open in a locked space'])(
  'a change request that is %s',
  (status) => {
    let spaceId: string;
    let changeRequestId: string;
    beforeAll(async () => {
      spaceId = await spaceIn('live');
      changeRequestId = (await t.client.spaces.createChangeRequest(spaceId, { subject: status })).data.id;
      await t.client.spaces.updateChangeRequestById(spaceId, changeRequestId, { status: 'open' });
      if (status === 'merged') await t.client.spaces.mergeChangeRequest(spaceId, changeRequestId);
      if (status === 'archived')
        await t.client.spaces.updateChangeRequestById(spaceId, changeRequestId, { status: 'archived' });
      if (status === 'open in a locked space')
        await t.client.spaces.updateSpaceById(spaceId, { editMode: 'locked' as never });
    });

    it.each(CALLERS)('REST, the socket and policy agree for %s', async (caller) => {
      const token = users.get(caller)!.token;
      const rest = await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, { token });
      const fork = await socketWrite({ spaceId, changeRequestId, kind: 'content' }, token);
      if (rest.status === 404) {
        expect(fork).toBe('hidden');
        return;
      }
      expect(rest.status).toBe(200);
      // Members get their organization role on the space (default level `inherit`, no grants).
      const decision = decideChangeRequest({ role: caller as Role }, 'edit-content', {
        type: 'change-request',
        space: {
          type: 'space',
          node: { type: 'space', id: spaceId, organizationId: orgId, parentId: null, defaultLevel: 'inherit' },
          deleted: false,
          locked: status === 'open in a locked space',
        },
        status: status === 'open in a locked space' ? 'open' : status,
      });
      const refusedWith = { forbidden: CloseCode.readOnly, closed: CloseCode.locked } as Record<string, number>;
      expect(fork).toBe(decision.allowed ? 'accepted' : refusedWith[decision.reason]);
      expect(await socketWrite({ spaceId, changeRequestId, kind: 'discussion' }, token)).toBe(CloseCode.readOnly);
    });
  },
);
