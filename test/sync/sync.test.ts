import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { startTestServer, type TestServer } from '../helpers/server';
import { newMember } from '../helpers/members';
import * as encoding from 'lib0/encoding';
import { spaceContentDoc } from '../../shared/sync-contract';
import { rawSocket } from '../helpers/raw-sockets';
import { SyncClients, synced, syncUrl, type Client } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

let t: TestServer;
let orgId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Sync Org' })).data.id;
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

const newSpace = async (title: string) => (await t.client.orgs.createSpace(orgId, { title })).data.id;

/** A stock client of the space's content document, closed after the suite. */
const client = (spaceId: string, token = t.adminToken): Client => clients.connect(t.url, spaceId, token);

describe('live sync with stock y-websocket clients', () => {
  it('converges concurrent edits of several clients on several spaces, without leaking between spaces', async () => {
    const spaces = [await newSpace('One'), await newSpace('Two'), await newSpace('Three')];
    const editor = await newMember(t, orgId, 'edit');
    const groups = spaces.map((id) => [client(id), client(id, editor.token), client(id)]);
    await Promise.all(groups.flat().map((c) => synced(c)));
    // Everyone types at once, several times, into the same text.
    for (let round = 0; round < 5; round++) {
      groups.forEach((group, s) => group.forEach((c, i) => c.text.insert(0, `[s${s}c${i}r${round}]`)));
    }
    for (const [s, group] of groups.entries()) {
      await waitFor(
        () => group.every((c) => c.text.length === 15 * `[s0c0r0]`.length),
        10_000,
        `space ${s} to converge`,
      );
      const texts = group.map((c) => c.text.toString());
      expect(new Set(texts).size).toBe(1);
      expect(texts[0]).not.toMatch(new RegExp(`\\[s(?!${s})`));
      const server = await t.server.ctx.hub.withDoc(spaceContentDoc(spaces[s]!), (doc) =>
        doc.getText('body').toString(),
      );
      expect(server).toBe(texts[0]);
    }
  });

  it('merges edits made offline when the client reconnects', async () => {
    const space = await newSpace('Offline');
    const a = client(space);
    const b = client(space);
    await Promise.all([synced(a), synced(b)]);
    a.text.insert(0, 'shared ');
    await waitFor(() => b.text.toString() === 'shared ');
    a.provider.disconnect();
    a.text.insert(a.text.length, 'offline-a ');
    b.text.insert(0, 'online-b ');
    await waitFor(() => b.text.toString() === 'online-b shared ');
    expect(a.text.toString()).toBe('shared offline-a ');
    a.provider.connect();
    await waitFor(
      () => a.text.toString() === b.text.toString() && a.text.length === 'online-b shared offline-a '.length,
      10_000,
      'offline merge',
    );
    expect(b.text.toString()).toBe('online-b shared offline-a ');
  });

  it('keeps frames that arrive before the document is loaded (buffered, in order)', async () => {
    const space = await newSpace('Eager');
    expect(t.server.ctx.hub.isLoaded(spaceContentDoc(space))).toBe(false);
    const source = new Y.Doc();
    const frames: Uint8Array[] = [];
    source.on('update', (u: Uint8Array) =>
      frames.push(
        encoding.encode(
          (e) => (encoding.writeVarUint(e, 0), encoding.writeVarUint(e, 2), encoding.writeVarUint8Array(e, u)),
        ),
      ),
    );
    for (const word of ['one ', 'two ', 'three']) source.getText('body').insert(source.getText('body').length, word);
    const { ws } = await rawSocket(syncUrl(t.url, space, t.adminToken));
    for (const f of frames) ws.send(f);
    ws.close();
    await waitFor(
      async () =>
        (await t.server.ctx.hub.withDoc(spaceContentDoc(space), (doc) => doc.getText('body').toString())) ===
        'one two three',
      10_000,
      'the early frames',
    );
  });

  it('loads a document for a late joiner from storage after it was unloaded', async () => {
    const space = await newSpace('Late');
    const a = client(space);
    await synced(a);
    a.doc.getMap('pages').set('p1', 'first page');
    await waitFor(() => t.server.ctx.hub.isLoaded(spaceContentDoc(space)));
    await t.server.ctx.hub.flush();
    a.destroy();
    const late = client(space);
    await synced(late);
    await waitFor(() => late.doc.getMap('pages').get('p1') === 'first page');
  });

  it('applies server-side changes (hub.change) only after commit and fans them out', async () => {
    const space = await newSpace('REST edits');
    const a = client(space);
    await synced(a);
    const seen: string[] = [];
    const off = t.server.ctx.hub.onUpdate((name, update, origin) => {
      if (name === spaceContentDoc(space)) seen.push(origin.kind);
      expect(update.byteLength).toBeGreaterThan(0);
    });
    const update = await t.server.ctx.hub.change(
      spaceContentDoc(space),
      (doc) => doc.getText('body').insert(0, 'from REST'),
      { reason: 'test' },
    );
    expect(update).toBeInstanceOf(Uint8Array);
    await waitFor(() => a.text.toString() === 'from REST');
    a.text.insert(a.text.length, '!');
    await waitFor(() => seen.includes('socket'));
    expect(seen).toEqual(['server', 'socket']);
    expect(await t.server.ctx.hub.change(spaceContentDoc(space), () => undefined)).toBeNull();
    off();
    // What a REST reader sees equals what the clients see.
    const stored = await t.server.ctx.hub.withDoc(spaceContentDoc(space), (doc) => Y.encodeStateAsUpdate(doc));
    const copy = new Y.Doc();
    Y.applyUpdate(copy, stored);
    expect(copy.getText('body').toString()).toBe('from REST!');
  });

  it('relays awareness and removes a closed connection’s presence', async () => {
    const space = await newSpace('Presence');
    const a = client(space);
    const b = client(space);
    await Promise.all([synced(a), synced(b)]);
    a.provider.awareness.setLocalStateField('user', { name: 'Ada' });
    await waitFor(
      () =>
        (b.provider.awareness.getStates().get(a.doc.clientID) as { user?: { name: string } } | undefined)?.user
          ?.name === 'Ada',
    );
    a.destroy();
    await waitFor(() => !b.provider.awareness.getStates().has(a.doc.clientID), 10_000, 'presence removal');
  });
});
