import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '@gitbook/api';
import type { RunningServer } from '../../sync-server/server';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { asRole } from '../helpers/api';
import { newMember } from '../helpers/members';
import { CloseCode, docNameOf, spaceDiscussionDoc, type SyncDocKind } from '../../shared/sync-contract';
import { asTestServer, durableStorage, startOn, type DurableStorage } from '../helpers/durable-server';
import { SyncClients, synced, type Client, type SyncDocument } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * Who may write over the socket: `edit` on the space, not locked, not
 * deleted; discussions never. Runs on durable storage so a refused write can
 * be checked after a restart too.
 */

let storage: DurableStorage;
let server: RunningServer;
let admin: GitBookAPI;
let orgId: string;
const clients = new SyncClients();

beforeAll(async () => {
  storage = await durableStorage();
  ({ server, client: admin } = await startOn(storage));
  orgId = (await admin.orgs.createOrganization({ title: 'Permissions Org' })).data.id;
});
afterAll(async () => {
  clients.destroyAll();
  await server?.close();
  await storage?.cleanup();
});

/** A stock client on the current server (it changes on restarts), closed after the suite. */
const client = (document: SyncDocument, token = TEST_ADMIN_TOKEN): Client =>
  clients.connect(server.url, document, token);

const newSpace = async (title: string) => (await admin.orgs.createSpace(orgId, { title })).data.id;

const member = (role: 'read' | 'comment' | 'edit') => newMember(asTestServer(server), orgId, role);

const serverText = (spaceId: string, kind: SyncDocKind = 'content') =>
  server.ctx.hub.withDoc(docNameOf({ spaceId, kind }), (doc) => doc.getText('body').toString());

describe('socket write permissions', () => {
  it.each(['read', 'comment'] as const)(
    'a %s member receives live edits but cannot change content, even after a restart',
    async (role) => {
      const space = await newSpace(`Read-only for ${role}`);
      const user = await member(role);
      const editor = client(space);
      const reader = client(space, user.token);
      await Promise.all([synced(editor), synced(reader)]);
      editor.text.insert(0, 'official');
      await waitFor(() => reader.text.toString() === 'official', 10_000, 'the reader to receive the edit');
      reader.text.insert(0, 'vandal ');
      await waitFor(() => reader.closes.some((c) => c.code === CloseCode.readOnly), 10_000, 'the read-only close');
      expect(reader.closes.find((c) => c.code === CloseCode.readOnly)?.reason).toBe('read-only');
      editor.text.insert(editor.text.length, '!');
      await server.ctx.hub.flush();
      await sleep(100);
      expect(editor.text.toString()).toBe('official!');
      expect(await serverText(space)).toBe('official!');
      // A fresh client sees the same thing, and so does one after a restart.
      const fresh = client(space);
      await synced(fresh);
      expect(fresh.text.toString()).toBe('official!');
      for (const c of [editor, reader, fresh]) c.destroy();
      await server.close();
      ({ server, client: admin } = await startOn(storage));
      const afterRestart = client(space);
      await synced(afterRestart);
      expect(afterRestart.text.toString()).toBe('official!');
    },
  );

  it('keeps a reader connected when it only re-sends what the server has (reconnect, cache replay)', async () => {
    const space = await newSpace('Reconnecting reader');
    const user = await member('read');
    const editor = client(space);
    const reader = client(space, user.token);
    await Promise.all([synced(editor), synced(reader)]);
    editor.text.insert(0, 'hello');
    await waitFor(() => reader.text.toString() === 'hello');
    reader.provider.disconnect();
    editor.text.insert(5, ' world');
    reader.provider.connect();
    await waitFor(() => reader.text.toString() === 'hello world');
    await sleep(100);
    expect(reader.closes.filter((c) => c.code >= 4000)).toEqual([]);
    expect(reader.provider.wsconnected).toBe(true);
  });

  it('refuses writes to a locked space (4423) and to a deleted one (4410)', async () => {
    const locked = await newSpace('Locked');
    const a = client(locked);
    await synced(a);
    a.text.insert(0, 'before lock');
    await waitFor(async () => (await serverText(locked)) === 'before lock');
    await admin.spaces.updateSpaceById(locked, { editMode: 'locked' as never });
    a.text.insert(0, 'after lock ');
    await waitFor(() => a.closes.some((c) => c.code === CloseCode.locked), 10_000, 'the locked close');
    expect(await serverText(locked)).toBe('before lock');

    const deleted = await newSpace('Deleted');
    const b = client(deleted);
    await synced(b);
    await admin.spaces.deleteSpaceById(deleted);
    b.text.insert(0, 'into the bin');
    await waitFor(() => b.closes.some((c) => c.code === CloseCode.deleted), 10_000, 'the deleted close');
    expect(await serverText(deleted)).toBe('');
  });

  it('notices role changes while connected: promoted readers may write, demoted editors may not', async () => {
    const space = await newSpace('Changing roles');
    const promoted = await member('read');
    const demoted = await member('edit');
    const p = client(space, promoted.token);
    const d = client(space, demoted.token);
    await Promise.all([synced(p), synced(d)]);
    d.text.insert(0, 'editor was here. ');
    await waitFor(async () => (await serverText(space)) === 'editor was here. ');
    await admin.orgs.updateMemberInOrganizationById(orgId, promoted.id, { role: asRole('edit') });
    await admin.orgs.updateMemberInOrganizationById(orgId, demoted.id, { role: asRole('read') });
    p.text.insert(p.text.length, 'promoted writes.');
    await waitFor(async () => (await serverText(space)).endsWith('promoted writes.'), 10_000, 'the promoted write');
    d.text.insert(0, 'demoted tries. ');
    await waitFor(() => d.closes.some((c) => c.code === CloseCode.readOnly), 10_000, 'the demoted close');
    expect(await serverText(space)).toBe('editor was here. promoted writes.');
    expect(p.closes).toEqual([]);
  });

  it('closes with 4401 once the token is revoked', async () => {
    const space = await newSpace('Revoked');
    const user = await member('edit');
    const c = client(space, user.token);
    await synced(c);
    await server.ctx.db.query('DELETE FROM api_tokens WHERE user_id = $1', [user.id]);
    c.text.insert(0, 'after revocation');
    await waitFor(() => c.closes.some((x) => x.code === CloseCode.unauthorized), 10_000, 'the unauthorized close');
    expect(await serverText(space)).toBe('');
  });

  it('serves the discussion document read-only to everyone; only the server writes it', async () => {
    const space = await newSpace('Discussed');
    const a = client({ spaceId: space, kind: 'discussion' });
    await synced(a);
    await server.ctx.hub.change(spaceDiscussionDoc(space), (doc) => doc.getText('body').insert(0, 'a comment'));
    await waitFor(() => a.text.toString() === 'a comment');
    a.text.insert(0, 'forged ');
    await waitFor(() => a.closes.some((c) => c.code === CloseCode.readOnly), 10_000, 'the read-only close');
    expect(await serverText(space, 'discussion')).toBe('a comment');
    // The content document is a different document.
    expect(await serverText(space)).toBe('');
  });
});
