import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as encoding from 'lib0/encoding';
import { startTestServer, type TestServer } from '../helpers/server';
import { newMember } from '../helpers/members';
import { spaceContentDoc } from '../../shared/sync-contract';
import { rawSocket } from '../helpers/raw-sockets';
import { connect, synced, syncUrl, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';
import { MAX_AWARENESS_STATE_BYTES } from '../../sync-server/docs/protocol';
import { MAX_AWARENESS_CLIENTS_PER_CONNECTION } from '../../sync-server/docs/live-doc';

/**
 * Presence (awareness) is bounded: a state over MAX_AWARENESS_STATE_BYTES and
 * client ids beyond MAX_AWARENESS_CLIENTS_PER_CONNECTION per socket are
 * dropped: never stored, never sent to peers or newcomers, never published to
 * other processes (nor taken from them). The sending socket stays open.
 */

let t: TestServer;
let spaceId: string;
let readerToken: string;
const opened: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Presence limits' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Crowded' })).data.id;
  readerToken = (await newMember(t, orgId, 'read')).token;
});
afterAll(async () => {
  for (const c of opened) c.destroy();
  await t?.close();
});

type Entry = [clientId: number, clock: number, state: unknown];

/** An awareness update (y-protocols encoding) holding `entries`. */
function awarenessUpdate(entries: readonly Entry[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, entries.length);
  for (const [clientId, clock, state] of entries) {
    encoding.writeVarUint(e, clientId);
    encoding.writeVarUint(e, clock);
    encoding.writeVarString(e, JSON.stringify(state));
  }
  return encoding.toUint8Array(e);
}

/** An awareness frame (message type 1) holding `entries`. */
function awarenessFrame(entries: readonly Entry[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint8Array(e, awarenessUpdate(entries));
  return encoding.toUint8Array(e);
}

/** A stock client that records every presence it is shown: client ids, and the largest state (JSON bytes). */
function watcher(): { client: Client; seen: Set<number>; largest: () => number } {
  const client = connect(t.url, spaceId, t.adminToken);
  opened.push(client);
  const seen = new Set<number>();
  let largest = 0;
  client.provider.awareness.on('update', ({ added, updated }: { added: number[]; updated: number[] }) => {
    for (const id of [...added, ...updated]) {
      if (id === client.doc.clientID) continue;
      seen.add(id);
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify(client.provider.awareness.getStates().get(id))));
    }
  });
  return { client, seen, largest: () => largest };
}

const serverAwareness = () => t.server.ctx.hub.loadedDoc(spaceContentDoc(spaceId))!.awareness;
const hasSentinel = (c: Client, id: number, value: string) =>
  (c.provider.awareness.getStates().get(id) as { sentinel?: string } | undefined)?.sentinel === value;

describe('awareness limits', () => {
  it('drops oversized states and client ids beyond the per-socket limit; peers and newcomers never see them', async () => {
    const peer = watcher();
    await synced(peer.client);
    const attacker = await rawSocket(syncUrl(t.url, spaceId, readerToken));

    const OVERSIZED = 7_001;
    const huge = { blob: 'x'.repeat(1024 * 1024) };
    attacker.ws.send(awarenessFrame([[OVERSIZED, 1, huge]]));
    const FIRST = 10_000;
    const many: Entry[] = Array.from({ length: 5_000 }, (_, i) => [FIRST + i, 1, { user: `fake ${i}` }]);
    attacker.ws.send(awarenessFrame(many));
    // A later state of an admitted id: once the peer has it, every frame before it was handled.
    attacker.ws.send(awarenessFrame([[FIRST, 2, { sentinel: 'one' }]]));
    await waitFor(() => hasSentinel(peer.client, FIRST, 'one'), 10_000, 'the sentinel state at the peer');

    expect(peer.seen.has(OVERSIZED)).toBe(false);
    expect(peer.largest()).toBeLessThanOrEqual(MAX_AWARENESS_STATE_BYTES);
    const fromAttacker = [...peer.seen].filter((id) => id >= FIRST);
    expect(fromAttacker.length).toBe(MAX_AWARENESS_CLIENTS_PER_CONNECTION);

    // The budget is per socket, not per moment: removing its states does not let it introduce new ones.
    attacker.ws.send(awarenessFrame(fromAttacker.map((id): Entry => [id, 5, null])));
    attacker.ws.send(awarenessFrame(Array.from({ length: 100 }, (_, i): Entry => [20_000 + i, 1, { again: i }])));
    attacker.ws.send(awarenessFrame([[FIRST, 6, { sentinel: 'two' }]]));
    await waitFor(() => hasSentinel(peer.client, FIRST, 'two'), 10_000, 'the second sentinel at the peer');
    expect([...peer.seen].filter((id) => id >= 20_000)).toEqual([]);

    // The server keeps no more than the peer's presence and the attacker's admitted ids, none oversized.
    const awareness = serverAwareness();
    expect(awareness.getStates().size).toBeLessThanOrEqual(1 + MAX_AWARENESS_CLIENTS_PER_CONNECTION);
    expect(awareness.meta.size).toBeLessThanOrEqual(1 + MAX_AWARENESS_CLIENTS_PER_CONNECTION);
    for (const state of awareness.getStates().values())
      expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThanOrEqual(MAX_AWARENESS_STATE_BYTES);

    // A newcomer's greeting holds the same bounded set.
    const newcomer = watcher();
    await synced(newcomer.client);
    await waitFor(() => hasSentinel(newcomer.client, FIRST, 'two'), 10_000, 'the sentinel in the greeting');
    expect(newcomer.seen.has(OVERSIZED)).toBe(false);
    expect([...newcomer.seen].filter((id) => id >= FIRST).length).toBeLessThanOrEqual(
      MAX_AWARENESS_CLIENTS_PER_CONNECTION,
    );
    expect(newcomer.largest()).toBeLessThanOrEqual(MAX_AWARENESS_STATE_BYTES);

    // Dropped, not refused: the attacker's socket stays open (a stock client would never reconnect after a 44xx).
    expect(attacker.ws.readyState).toBe(attacker.ws.OPEN);
    attacker.ws.close();
  });

  it('drops oversized states published by another process', async () => {
    const peer = watcher();
    await synced(peer.client);
    const live = t.server.ctx.hub.loadedDoc(spaceContentDoc(spaceId))!;
    // What the fan-out bridge calls with another process's awareness message.
    live.applyRemoteAwareness(
      awarenessUpdate([
        [30_001, 1, { blob: 'y'.repeat(MAX_AWARENESS_STATE_BYTES) }],
        [30_002, 1, { sentinel: 'remote' }],
      ]),
    );
    await waitFor(() => hasSentinel(peer.client, 30_002, 'remote'), 10_000, 'the remote sentinel at the peer');
    await sleep(50);
    expect(peer.seen.has(30_001)).toBe(false);
    expect(live.awareness.getStates().has(30_001)).toBe(false);
    expect(live.awareness.meta.has(30_001)).toBe(false);
  });
});
