import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import { startTestServer, type TestServer } from '../helpers/server';
import { newMember } from '../helpers/members';
import { newUser } from '../helpers/api';
import { CloseCode, spaceContentDoc } from '../../shared/sync-contract';
import { rawSocket, upgradeStatus } from '../helpers/raw-sockets';
import { connect, synced, syncBase, syncUrl, type Client, type SyncDocument } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * Hostile input: refused upgrades (401/404 before the handshake), and frames
 * that are random, truncated or of unknown types. Each bad frame closes only
 * its own socket (CloseCode.malformed, 4400); the process, the document and the other clients
 * carry on untouched.
 */

let t: TestServer;
let orgId: string;
let spaceId: string;
let bystander: Client;
const ORIGINAL = 'the original text';

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Robust Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Target' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => doc.getText('body').insert(0, ORIGINAL));
  bystander = connect(t.url, spaceId, t.adminToken);
  await synced(bystander);
});
afterAll(async () => {
  bystander?.destroy();
  await t?.close();
});

/** The sync URL of a document; token null = none in the query. */
const url = (document: SyncDocument = spaceId, token: string | null = t.adminToken) => syncUrl(t.url, document, token);
const serverText = () => t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (doc) => doc.getText('body').toString());

/** Frames built from the grammar, each broken in one way. */
function craftedFrames(): [string, Uint8Array | string][] {
  const frame = (...parts: (number | Uint8Array)[]) => {
    const e = encoding.createEncoder();
    for (const p of parts) {
      if (typeof p === 'number') encoding.writeVarUint(e, p);
      else encoding.writeVarUint8Array(e, p);
    }
    return encoding.toUint8Array(e);
  };
  const source = new Y.Doc();
  source.getText('body').insert(0, 'an update long enough to be cut in the middle of a struct');
  const update = Y.encodeStateAsUpdate(source);
  const awareness = (json: string) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, 42);
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, json);
    return encoding.toUint8Array(e);
  };
  return [
    ['empty frame', new Uint8Array()],
    ['sync without a sub-type', new Uint8Array([0])],
    ['SyncStep1 without a payload', new Uint8Array([0, 0])],
    ['payload length beyond the frame', new Uint8Array([0, 2, 200, 1, 1])],
    ['varint that never ends', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])],
    ['unknown message type', new Uint8Array([7])],
    ['unknown sync type', frame(0, 9, new Uint8Array([0]))],
    ['truncated state vector', frame(0, 0, new Uint8Array([3, 1]))],
    ['undecodable update', frame(0, 2, new Uint8Array([1, 2, 3]))],
    ['update cut in half', frame(0, 2, update.slice(0, Math.floor(update.length / 2)))],
    ['SyncStep2 cut in half', frame(0, 1, update.slice(0, update.length - 3))],
    ['valid update plus trailing bytes', new Uint8Array([...frame(0, 2, update), 9, 9])],
    ['awareness with a non-JSON state', frame(1, awareness('{not json'))],
    ['awareness cut short', frame(1, awareness('{"a":1}').slice(0, 4))],
    ['text frame', 'hello'],
  ];
}

/** mulberry32: a tiny seeded PRNG, so the random frames are the same on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('refused upgrades', () => {
  it('answers 401 without a token or with an unknown one, before the handshake', async () => {
    const none = await upgradeStatus(url(spaceId, null));
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ error: { code: 401 } });
    expect((await upgradeStatus(url(spaceId, 'folio_not-a-real-token'))).status).toBe(401);
    expect((await upgradeStatus(url(spaceId, null), { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('accepts the token in the Authorization header too', async () => {
    expect((await upgradeStatus(url(spaceId, null), { authorization: `Bearer ${t.adminToken}` })).status).toBe(101);
  });

  it('answers 404 for spaces the caller cannot see and for unknown paths', async () => {
    const member = await newMember(t, orgId, 'edit');
    const otherOrg = (await t.client.orgs.createOrganization({ title: 'Elsewhere' })).data.id;
    const foreign = (await t.client.orgs.createSpace(otherOrg, { title: 'Not yours' })).data.id;
    expect((await upgradeStatus(url(foreign, member.token))).status).toBe(404);
    expect((await upgradeStatus(url({ spaceId: foreign, kind: 'discussion' }, member.token))).status).toBe(404);
    expect((await upgradeStatus(url(spaceId, member.token))).status).toBe(101);
    const stranger = await newUser(t);
    expect((await upgradeStatus(url(spaceId, stranger.token))).status).toBe(404);
    expect((await upgradeStatus(url('unknownSpaceId000000'))).status).toBe(404);
    // A path outside the sync grammar (built by hand: the contract's builders only make valid ones).
    expect((await upgradeStatus(`${syncBase(t.url)}/${spaceId}/elsewhere?token=${t.adminToken}`)).status).toBe(404);
    expect((await upgradeStatus(`${t.url.replace('http', 'ws')}/v1/orgs?token=${t.adminToken}`)).status).toBe(404);
  });
});

describe('malformed frames', () => {
  it.each(craftedFrames())('closes the socket with 4400 on %s', async (_name, bad) => {
    const { ws, closed } = await rawSocket(url());
    ws.send(bad);
    expect((await closed).code).toBe(CloseCode.malformed);
    expect(await serverText()).toBe(ORIGINAL);
  });

  it('survives 300 random frames (and truncations of real ones) without changing the document', async () => {
    const random = prng(20240611);
    const real = new Y.Doc();
    real.getText('body').insert(0, 'x'.repeat(40));
    const realFrame = new Uint8Array([
      0,
      2,
      ...encoding.encode((e) => encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(real))),
    ]);
    const codes = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const { ws, closed } = await rawSocket(url());
      const frame =
        i % 3 === 0
          ? realFrame.slice(0, Math.floor(random() * (realFrame.length - 1)))
          : Uint8Array.from({ length: 1 + Math.floor(random() * 64) }, () => Math.floor(random() * 256));
      // Bias toward the interesting message types so the parser gets past the first byte.
      if (i % 3 === 1 && frame.length > 1) frame[0] = Math.floor(random() * 4);
      ws.send(frame);
      const outcome = await Promise.race([
        closed,
        new Promise<{ code: number }>((r) => setTimeout(() => r({ code: 0 }), 300)),
      ]);
      if (outcome.code === 0) ws.close();
      codes.set(outcome.code, (codes.get(outcome.code) ?? 0) + 1);
    }
    // Every frame was either refused with CloseCode.malformed or was harmless (e.g. [3] is a valid query-awareness).
    expect([...codes.keys()].every((c) => c === CloseCode.malformed || c === 0)).toBe(true);
    expect(codes.get(CloseCode.malformed)).toBeGreaterThan(250);
    await t.server.ctx.hub.flush();
    expect(await serverText()).toBe(ORIGINAL);
    // The bystander never noticed, and the server still syncs.
    expect(bystander.closes).toEqual([]);
    bystander.text.insert(0, '> ');
    const late = connect(t.url, spaceId, t.adminToken);
    await waitFor(() => late.text.toString() === `> ${ORIGINAL}`);
    late.destroy();
  });
});
