import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import { startTestServer, type TestServer } from '../helpers/server';
import { spaceContentDoc } from '../../shared/sync-contract';
import { DocHub } from '../../sync-server/docs/hub';
import { rawSocket } from '../helpers/raw-sockets';
import { SyncClients, synced, syncUrl } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * The group committer stores a batch of client updates as the one update
 * their Yjs transaction made (one log row per document and batch, not one per
 * keystroke), applied to the live document right before the commit. What
 * must still hold: nobody sees a batch before its commit (other clients, a
 * newcomer's first sync, server-side reads), a cold load has every update in
 * order, and an update waiting for a missing one is stored as received.
 */

let t: TestServer;
const clients = new SyncClients();
let orgId: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Coalesced Org' })).data.id;
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

async function newSpace(title: string): Promise<{ spaceId: string; name: string }> {
  const spaceId = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  return { spaceId, name: spaceContentDoc(spaceId) };
}

/** The text a fresh hub (nothing in memory) reads from the database. */
async function coldText(name: string): Promise<string> {
  const cold = new DocHub(t.server.ctx.db, {}, { error: () => undefined, warn: () => undefined });
  try {
    return await cold.withDoc(name, (doc) => doc.getText('body').toString());
  } finally {
    await cold.close();
  }
}

/** A sync Update frame (y-websocket: message 0, sync step 2 = update) carrying `update`. */
function updateFrame(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

describe('coalesced commits', () => {
  it('stores a burst of one-word updates in a few log rows, and a cold load has every word in order', async () => {
    const { spaceId, name } = await newSpace('Burst');
    const writer = clients.connect(t.url, spaceId);
    const reader = clients.connect(t.url, spaceId);
    await Promise.all([synced(writer), synced(reader)]);
    const words = Array.from({ length: 400 }, (_, k) => `word${k} `);
    // Each insert is its own transaction, so its own update and its own frame.
    for (const word of words) writer.text.insert(writer.text.length, word);
    const expected = words.join('');
    await waitFor(() => reader.text.toString() === expected, 15_000, 'the reader to have every word');
    await t.server.ctx.hub.flush();
    const tail = await t.server.ctx.hub.store.tailStats(name);
    // One row per batch (an event-loop turn's worth of frames), not one per update.
    expect(tail.count).toBeGreaterThan(0);
    expect(tail.count).toBeLessThan(words.length / 4);
    expect(await coldText(name)).toBe(expected);
  });

  it('shows a batch applied before its commit to nobody until the commit: not other clients, not a newcomer, not a read', async () => {
    const { spaceId, name } = await newSpace('Held back');
    const a = clients.connect(t.url, spaceId);
    const b = clients.connect(t.url, spaceId);
    await Promise.all([synced(a), synced(b)]);
    a.text.insert(0, 'stored. ');
    await waitFor(() => b.text.toString() === 'stored. ', 10_000, 'the first edit');

    // Appends to the update log wait behind this lock (on PGlite the whole database waits).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const blocker = t.server.ctx.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE doc_updates IN EXCLUSIVE MODE');
      locked();
      await gate;
    });
    let late: ReturnType<typeof clients.connect> | undefined;
    let read: Promise<string> | undefined;
    try {
      await holding;
      a.text.insert(a.text.length, 'staged.');
      // Applied to the server's copy, its commit waiting for the lock.
      const live = t.server.ctx.hub.loadedDoc(name)!;
      await waitFor(() => live.doc.getText('body').toString() === 'stored. staged.', 10_000, 'the staged batch');
      late = clients.connect(t.url, spaceId);
      read = t.server.ctx.hub.withDoc(name, (doc) => doc.getText('body').toString());
      await sleep(300);
      expect(b.text.toString()).toBe('stored. ');
      expect(late.text.toString()).toBe('');
    } finally {
      release();
      await blocker;
    }
    expect(await read).toBe('stored. staged.');
    await waitFor(() => b.text.toString() === 'stored. staged.', 10_000, 'the broadcast after the commit');
    await waitFor(() => late!.text.toString() === 'stored. staged.', 10_000, 'the newcomer after the commit');
    expect(await coldText(name)).toBe('stored. staged.');
  });

  it('stores an update that waits for a missing one as received, so it survives until the missing one arrives', async () => {
    const { spaceId, name } = await newSpace('Pending');
    const reader = clients.connect(t.url, spaceId);
    await synced(reader);
    // Two updates of one author; the second builds on the first, which the server has not seen yet.
    const author = new Y.Doc();
    const updates: Uint8Array[] = [];
    author.on('update', (u: Uint8Array) => updates.push(u));
    author.getText('body').insert(0, 'first ');
    author.getText('body').insert(6, 'second');
    const [first, second] = updates as [Uint8Array, Uint8Array];

    const { ws } = await rawSocket(syncUrl(t.url, spaceId, t.adminToken));
    ws.send(updateFrame(second));
    await waitFor(async () => (await t.server.ctx.hub.store.tailStats(name)).count > 0, 10_000, 'the stored update');
    await t.server.ctx.hub.flush();
    expect(reader.text.toString()).toBe('');
    // What is stored, completed with the missing update, is the whole text.
    const stored = await t.server.ctx.hub.store.load(name);
    const replay = new Y.Doc();
    for (const part of [...(stored.state ? [stored.state] : []), ...stored.tail.map((r) => r.data), first])
      Y.applyUpdate(replay, part);
    expect(replay.getText('body').toString()).toBe('first second');

    ws.send(updateFrame(first));
    await waitFor(() => reader.text.toString() === 'first second', 10_000, 'both updates at the reader');
    ws.close();
    await t.server.ctx.hub.flush();
    expect(await coldText(name)).toBe('first second');
  });
});
