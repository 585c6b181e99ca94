import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { asRole } from '../helpers/api';
import { newMember } from '../helpers/members';
import { issueToken } from '../../sync-server/identity/users';
import { CloseCode, type SyncAddress } from '../../shared/sync-contract';
import { SyncClients, synced, type Client, type SyncDocument } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * Losing access closes open sockets, without the client writing anything:
 * a removed member, a revoked token, a withdrawn team grant or a default
 * level lowered to "no access" end the live stream (4404 / 4401) on content,
 * discussion and change-request documents alike, while a caller who may
 * still read stays connected.
 */

let t: TestServer;
let orgId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Access loss' })).data.id;
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

const client = (document: SyncDocument, token = t.adminToken): Client => clients.connect(t.url, document, token);
const newSpace = async (title: string) => (await t.client.orgs.createSpace(orgId, { title })).data.id;

/** Resolves once `c` was closed by the server with `code`. */
const closedWith = (c: Client, code: number, what: string) =>
  waitFor(() => c.closes.some((x) => x.code === code), 10_000, `${what} to close with ${code}`);

/**
 * The editor (instance admin) types `text`; once an observer that kept access
 * has it, the clients that lost access must not have it, not even after a
 * moment (the stock client must not have reconnected either).
 */
async function editReachesOnly(editor: Client, observer: Client, text: string, cutOff: Client[]): Promise<void> {
  editor.text.insert(editor.text.length, text);
  await waitFor(() => observer.text.toString().includes(text), 10_000, 'the observer to receive the edit');
  await sleep(200);
  for (const c of cutOff) {
    expect(c.text.toString()).not.toContain(text);
    expect(c.provider.wsconnected).toBe(false);
  }
}

describe('access loss closes open sockets', () => {
  it('a member removed through the API is cut off (4404) from content, discussion and change request', async () => {
    const spaceId = await newSpace('Removal');
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Draft' })).data;
    const member = await newMember(t, orgId, 'read');
    const documents: SyncAddress[] = [
      { spaceId, kind: 'content' },
      { spaceId, kind: 'discussion' },
      { spaceId, changeRequestId: cr.id, kind: 'content' },
      { spaceId, changeRequestId: cr.id, kind: 'discussion' },
    ];
    const sockets = documents.map((d) => client(d, member.token));
    const editor = client(spaceId);
    const observer = client(spaceId);
    await Promise.all([...sockets, editor, observer].map((c) => synced(c)));
    await editReachesOnly(editor, sockets[0]!, 'before. ', []);
    expect(sockets[0]!.text.toString()).toBe('before. ');

    await t.client.orgs.removeMemberFromOrganizationById(orgId, member.id);
    await Promise.all(sockets.map((c, i) => closedWith(c, CloseCode.notFound, `socket ${i} of the removed member`)));
    for (const c of sockets) expect(c.closes.map((x) => x.code)).toEqual([CloseCode.notFound]);
    await editReachesOnly(editor, observer, 'after removal.', sockets);
    expect(editor.closes).toEqual([]);
  });

  it('a member an admin disables (Folio extension) is cut off (4404) and stays out', async () => {
    const spaceId = await newSpace('Disabling');
    const member = await newMember(t, orgId, 'edit');
    const socket = client({ spaceId, kind: 'content' }, member.token);
    const editor = client(spaceId);
    await Promise.all([socket, editor].map((c) => synced(c)));
    const res = await fetch(`${t.url}/v1/orgs/${orgId}/members/${member.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(res.status).toBe(200);
    await closedWith(socket, CloseCode.notFound, 'the disabled member’s socket');
    await editReachesOnly(editor, editor, 'after disabling.', [socket]);
    expect(socket.closes.map((x) => x.code)).toEqual([CloseCode.notFound]);
  });

  it('a revoked token is cut off (4401) while another token of the same user stays connected', async () => {
    const spaceId = await newSpace('Revocation');
    const member = await newMember(t, orgId, 'edit');
    const content = client(spaceId, member.token);
    const discussion = client({ spaceId, kind: 'discussion' }, member.token);
    const editor = client(spaceId);
    await Promise.all([content, discussion, editor].map((c) => synced(c)));
    // What `npm run folio -- token revoke <id>` runs, through this server's database.
    const [row] = await t.server.ctx.db.query<{ id: string }>('SELECT id FROM api_tokens WHERE user_id = $1', [
      member.id,
    ]);
    const second = client(spaceId, await issueToken(t.server.ctx.db, member.id, 'second'));
    await synced(second);
    await t.server.ctx.db.query('DELETE FROM api_tokens WHERE id = $1 RETURNING id', [row!.id]);

    await closedWith(content, CloseCode.unauthorized, 'the content socket');
    await closedWith(discussion, CloseCode.unauthorized, 'the discussion socket');
    expect(content.closes.find((x) => x.code === CloseCode.unauthorized)?.reason).toBe('token revoked');
    await editReachesOnly(editor, second, 'after revocation', [content, discussion]);
    expect(second.closes).toEqual([]);
  });

  it('a guest whose team grant is removed is cut off (4404)', async () => {
    const spaceId = await newSpace('Team grant');
    const guest = await newMember(t, orgId, null);
    const team = (await t.client.orgs.createOrganizationTeam(orgId, { title: 'Readers', members: [guest.id] })).data;
    // Grants on spaces have no route of their own (they come with invites and teams): set like the team tests do.
    await t.server.ctx.db.query(
      "INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role) VALUES ('space', $1, 'team', $2, 'read')",
      [spaceId, team.id],
    );
    const socket = client(spaceId, guest.token);
    const editor = client(spaceId);
    const observer = client(spaceId);
    await Promise.all([synced(socket), synced(editor), synced(observer)]);
    await editReachesOnly(editor, socket, 'granted. ', []);

    await t.client.orgs.removeTeamFromOrganizationById(orgId, team.id);
    await closedWith(socket, CloseCode.notFound, "the guest's socket");
    await editReachesOnly(editor, observer, 'after the grant.', [socket]);
  });

  it('lowering the default level keeps readers connected; no default at all cuts members off (4404)', async () => {
    const spaceId = await newSpace('Default level');
    const reader = await newMember(t, orgId, 'read');
    const writer = await newMember(t, orgId, 'edit');
    const r = client(spaceId, reader.token);
    const w = client({ spaceId, kind: 'discussion' }, writer.token);
    const wContent = client(spaceId, writer.token);
    const editor = client(spaceId);
    const observer = client(spaceId);
    await Promise.all([r, w, wContent, editor, observer].map((c) => synced(c)));

    // Still allowed to read: nobody is disconnected, and edits keep flowing.
    await t.client.spaces.updateSpaceById(spaceId, { defaultLevel: asRole('read') });
    await sleep(500);
    await editReachesOnly(editor, r, 'read level. ', []);
    await waitFor(() => wContent.text.toString() === 'read level. ', 10_000, 'the demoted writer to still receive');
    for (const c of [r, w, wContent]) expect(c.closes).toEqual([]);

    await t.client.spaces.updateSpaceById(spaceId, { defaultLevel: null });
    for (const [c, what] of [
      [r, 'the reader'],
      [w, "the writer's discussion socket"],
      [wContent, "the writer's content socket"],
    ] as const)
      await closedWith(c, CloseCode.notFound, what);
    await editReachesOnly(editor, observer, 'hidden.', [r, w, wContent]);
    expect(editor.closes).toEqual([]);
  });
});
