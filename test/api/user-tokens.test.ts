import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../shared/sync-contract';
import { issueToken } from '../../sync-server/identity/users';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { SyncClients, synced, type Client } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

let t: TestServer;
let orgId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Tokens Org' }), 201)).id;
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

type TokenList = { items: { id: string; label: string; createdAt: string; current: boolean }[]; count: number };

async function tokensOf(token: string): Promise<TokenList> {
  const res = await raw(t, 'GET', '/v1/user/tokens', { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TokenList;
}

const closedWith = (c: Client, code: number) =>
  waitFor(() => c.closes.some((x) => x.code === code), 10_000, `the socket to close with ${code}`);

describe("the caller's tokens (Folio extension)", () => {
  it('lists only the caller’s tokens, marks the current one, and never shows a secret', async () => {
    const member = await newMember(t, orgId, 'read', 'Tia Tokens');
    const laptop = await issueToken(t.server.ctx.db, member.id, 'laptop');
    const list = await tokensOf(member.token);
    expect(list.count).toBe(2);
    expect(list.items.map((i) => [i.label, i.current])).toEqual([
      ['test', true],
      ['laptop', false],
    ]);
    const text = JSON.stringify(list);
    expect(text).not.toContain(member.token);
    expect(text).not.toContain(laptop);
    expect(text).not.toMatch(/hash|secret/i);
    // Seen from the other token, the other one is current.
    expect((await tokensOf(laptop)).items.find((i) => i.current)?.label).toBe('laptop');
  });

  it('revokes a token at once: it no longer authenticates, and its sockets close (4401)', async () => {
    const member = await newMember(t, orgId, 'edit', 'Rex Revoker');
    const laptop = await issueToken(t.server.ctx.db, member.id, 'laptop');
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Revoked' })).data.id;
    const onLaptop = clients.connect(t.url, spaceId, laptop);
    const onMain = clients.connect(t.url, spaceId, member.token);
    await Promise.all([synced(onLaptop), synced(onMain)]);

    const laptopId = (await tokensOf(member.token)).items.find((i) => i.label === 'laptop')!.id;
    const res = await raw(t, 'DELETE', `/v1/user/tokens/${laptopId}`, { token: member.token });
    expect(res.status, JSON.stringify(res.body)).toBe(204);

    expectError(await raw(t, 'GET', '/v1/user', { token: laptop }), 401);
    await closedWith(onLaptop, CloseCode.unauthorized);
    expect(onMain.closes).toEqual([]);
    expect((await tokensOf(member.token)).items.map((i) => i.label)).toEqual(['test']);
    // Revoked twice: gone, answered like every DELETE of what is not there.
    expect((await raw(t, 'DELETE', `/v1/user/tokens/${laptopId}`, { token: member.token })).status).toBe(204);
  });

  it("never revokes another user's token (a quiet 204 that tells nothing) and leaves it working", async () => {
    const owner = await newMember(t, orgId, 'read', 'Olga Owner');
    const other = await newMember(t, orgId, 'admin', 'Adam Admin');
    const ownerTokenId = (await tokensOf(owner.token)).items[0]!.id;
    expect((await raw(t, 'DELETE', `/v1/user/tokens/${ownerTokenId}`, { token: other.token })).status).toBe(204);
    expect((await raw(t, 'DELETE', `/v1/user/tokens/${ownerTokenId}`, { token: t.adminToken })).status).toBe(204);
    expect((await tokensOf(owner.token)).items.map((i) => i.id)).toEqual([ownerTokenId]);
    expect((await raw(t, 'GET', '/v1/user', { token: owner.token })).status).toBe(200);
    expectError(await raw(t, 'GET', '/v1/user/tokens'), 401);
  });

  it('a withdrawn space grant closes the guest’s socket (4404)', async () => {
    const guest = await newMember(t, orgId, null, 'Gwen Guest');
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Granted' })).data.id;
    const grant = await raw(t, 'POST', `/v1/spaces/${spaceId}/permissions`, {
      token: t.adminToken,
      body: { role: 'read', users: [guest.id] },
    });
    expect(grant.status).toBe(204);
    const socket = clients.connect(t.url, spaceId, guest.token);
    await synced(socket);
    const removed = await raw(t, 'DELETE', `/v1/spaces/${spaceId}/permissions/users/${guest.id}`, {
      token: t.adminToken,
    });
    expect(removed.status).toBe(205);
    await closedWith(socket, CloseCode.notFound);
  });
});
