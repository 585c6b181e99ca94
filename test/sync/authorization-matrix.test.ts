import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncAddress } from '../../shared/sync-contract';
import { mintCallers, type Caller } from '../helpers/authz-callers';
import { ask, decisionOf, type Check } from '../helpers/authz-expect';
import { must, NO_RATE_LIMITS } from '../helpers/authz-fixture';
import { expectedSocketOutcome, socketOutcome, type SocketOutcome } from '../helpers/authz-sockets';
import { startTestServer, type TestServer } from '../helpers/server';
import { SyncClients } from '../helpers/sync-clients';

/**
 * The authorization matrix of the sync endpoint (issue 13): every caller of
 * the REST matrix (authz-callers.ts) × the four documents of a space (its
 * content and discussion, an open change request's content and discussion).
 * The upgrade must be refused with 401 without a valid token and 404 when
 * policy hides the space; a write must be accepted exactly when policy
 * allows `edit-content` (space, change request) or `write-document`
 * (discussions: never), and otherwise closed with the contract's code for
 * policy's reason. Expectations are computed from policy, never written out.
 */

let t: TestServer;
let callers: Caller[];
let spaceId: string;
let changeRequestId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer(NO_RATE_LIMITS);
  const organizationId = String((await must(t, 'POST', '/orgs', { title: 'Socket matrix' })).id);
  const root = String((await must(t, 'POST', `/orgs/${organizationId}/collections`, { title: 'Root' })).id);
  callers = await mintCallers({ t, organizationId, collectionId: root });
  spaceId = String((await must(t, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Synced', parent: root })).id);
  changeRequestId = String((await must(t, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Fork' })).id);
  await must(t, 'PATCH', `/spaces/${spaceId}/change-requests/${changeRequestId}`, { status: 'open' });
}, 120_000);
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

/** The documents, each with the policy question its socket's writes ask. */
const DOCUMENTS: { name: string; address: () => SyncAddress; check: () => Check }[] = [
  {
    name: 'space content',
    address: () => ({ spaceId, kind: 'content' }),
    check: () => ask.space(spaceId, 'edit-content'),
  },
  {
    name: 'space discussion',
    address: () => ({ spaceId, kind: 'discussion' }),
    check: () => ask.discussion(spaceId, undefined, 'write-document'),
  },
  {
    name: 'change request content',
    address: () => ({ spaceId, changeRequestId, kind: 'content' }),
    check: () => ask.changeRequest(spaceId, changeRequestId, 'edit-content'),
  },
  {
    name: 'change request discussion',
    address: () => ({ spaceId, changeRequestId, kind: 'discussion' }),
    check: () => ask.discussion(spaceId, changeRequestId, 'write-document'),
  },
];

describe('every sync document × every caller', () => {
  it.each(DOCUMENTS.map((d) => d.name))('%s: upgrades and writes as policy says', async (name) => {
    const document = DOCUMENTS.find((d) => d.name === name)!;
    const problems: string[] = [];
    for (const caller of callers) {
      const expected: SocketOutcome = caller.userId
        ? expectedSocketOutcome(await decisionOf(t.server.ctx.db, caller.userId, document.check()))
        : 401;
      const got = await socketOutcome(t, clients, document.address(), caller.token);
      if (got !== expected) problems.push(`${name} × ${caller.name}: expected ${expected}, got ${got}`);
    }
    expect(problems).toEqual([]);
  });
});
