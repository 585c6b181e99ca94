import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '@gitbook/api';
import * as encoding from 'lib0/encoding';
import { gitbookClient } from '../helpers/server';
import { asTestServer } from '../helpers/durable-server';
import { newMember } from '../helpers/members';
import { openPostgres } from '../../sync-server/store/postgres';
import type { Db } from '../../sync-server/store/db';
import { CloseCode } from '../../shared/sync-contract';
import { rawSocket } from '../helpers/raw-sockets';
import { SyncClients, synced, syncUrl, type Client, type SyncDocument } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';
import { startCluster, type Cluster } from '../helpers/processes';
import { MAX_AWARENESS_STATE_BYTES } from '../../sync-server/docs/protocol';

/**
 * Two server processes sharing PostgreSQL and Redis: losing access through
 * one process closes the sockets held by the other (the invalidation it
 * publishes triggers the other's access sweep), and an oversized presence
 * sent to one never reaches the other.
 */
let cluster: Cluster;
let a: string;
let b: string;
let apiA: GitBookAPI;
let db: Db;
let orgId: string;
const clients = new SyncClients();
const client = (url: string, document: SyncDocument, token?: string): Client => clients.connect(url, document, token);

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.processes.map((p) => p.url) as [string, string];
  apiA = gitbookClient(a);
  db = await openPostgres(cluster.env.FOLIO_DATABASE_URL!);
  orgId = (await apiA.orgs.createOrganization({ title: 'Cluster access' })).data.id;
}, 120_000);
afterAll(async () => {
  clients.destroyAll();
  await db?.close();
  await cluster?.close();
});

describe('access loss across processes', () => {
  it('a member removed through process A is disconnected from process B (4404)', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Removed on A' })).data.id;
    const member = await newMember(asTestServer({ url: a, ctx: { db } }), orgId, 'read');
    const content = client(b, spaceId, member.token);
    const discussion = client(b, { spaceId, kind: 'discussion' }, member.token);
    const editor = client(a, spaceId);
    const observer = client(b, spaceId);
    await Promise.all([content, discussion, editor, observer].map((c) => synced(c)));
    editor.text.insert(0, 'before. ');
    await waitFor(() => content.text.toString() === 'before. ', 10_000, 'the member on B to receive the edit');

    await apiA.orgs.removeMemberFromOrganizationById(orgId, member.id);
    for (const [c, what] of [
      [content, 'the content socket on B'],
      [discussion, 'the discussion socket on B'],
    ] as const)
      await waitFor(() => c.closes.some((x) => x.code === CloseCode.notFound), 10_000, `${what} to close with 4404`);

    editor.text.insert(editor.text.length, 'after removal.');
    await waitFor(() => observer.text.toString().endsWith('after removal.'), 10_000, 'the observer on B');
    await sleep(200);
    expect(content.text.toString()).toBe('before. ');
    expect(content.provider.wsconnected).toBe(false);
    expect(observer.closes).toEqual([]);
  });

  it('never publishes an oversized presence from A to B', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Presence across' })).data.id;
    const peer = client(b, spaceId);
    await synced(peer);
    const seen = new Set<number>();
    peer.provider.awareness.on('update', ({ added, updated }: { added: number[]; updated: number[] }) => {
      for (const id of [...added, ...updated]) seen.add(id);
    });
    const attacker = await rawSocket(syncUrl(a, spaceId));
    const frame = (clientId: number, state: unknown) => {
      const update = encoding.createEncoder();
      encoding.writeVarUint(update, 1);
      encoding.writeVarUint(update, clientId);
      encoding.writeVarUint(update, 1);
      encoding.writeVarString(update, JSON.stringify(state));
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint8Array(e, encoding.toUint8Array(update));
      return encoding.toUint8Array(e);
    };
    attacker.ws.send(frame(40_001, { blob: 'z'.repeat(4 * MAX_AWARENESS_STATE_BYTES) }));
    attacker.ws.send(frame(40_002, { sentinel: true }));
    await waitFor(() => peer.provider.awareness.getStates().has(40_002), 10_000, 'the sentinel presence on B');
    expect(seen.has(40_001)).toBe(false);
    attacker.ws.close();
  });
});
