import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/client';
import { Outbox, type OutboxStore } from '../../renderer/src/comments/outbox';
import { startTestServer, type TestServer } from '../helpers/server';

/** The comment outbox against a real server: queued while unreachable, sent in order once, refusals dropped. */

let t: TestServer;
let spaceId: string;
beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Outbox' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Space' })).data.id;
});
afterAll(() => t?.close());

function memoryStore(): OutboxStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

it('queues while the server is unreachable, then sends in order without duplicates', async () => {
  const store = memoryStore();
  const path = `/spaces/${spaceId}`;
  // A closed port stands in for the unreachable server; the queue is persisted per server URL.
  const down = new Outbox(new ApiClient('http://127.0.0.1:9', t.adminToken), { store });
  down.enqueue({ kind: 'comment', path, markdown: 'first' });
  down.enqueue({ kind: 'comment', path, markdown: 'second' });
  await down.flush();
  expect(down.items().map((i) => i.op.kind === 'comment' && i.op.markdown)).toEqual(['first', 'second']);
  // Only the head was tried: later items never overtake it.
  expect(down.items().map((i) => i.attempted ?? false)).toEqual([true, false]);

  // Same queue, reachable server (the stored key is per server URL: move the items over as a reload would find them).
  const key = 'folio-outbox:http://127.0.0.1:9';
  store.setItem(`folio-outbox:${t.url}`, store.getItem(key)!);
  const rejected: string[] = [];
  const up = new Outbox(new ApiClient(t.url, t.adminToken), {
    store,
    onRejected: (_i, err) => rejected.push(err.message),
  });
  up.enqueue({ kind: 'comment', path: '/spaces/doesNotExist', markdown: 'refused' });
  await Promise.all([up.flush(), up.flush()]);
  expect(up.size).toBe(0);
  expect(rejected).toHaveLength(1);
  const comments = (await t.client.spaces.listCommentsInSpace(spaceId, { order: 'asc' as never })).data.items;
  expect(comments.map((c) => c.body)).toEqual([{ markdown: 'first' }, { markdown: 'second' }]);
});

it('does not resend an attempted item the server already has', async () => {
  const store = memoryStore();
  const outbox = new Outbox(new ApiClient(t.url, t.adminToken), { store, delivered: () => true });
  store.setItem(
    `folio-outbox:${t.url}`,
    JSON.stringify([
      {
        id: 'x',
        createdAt: new Date().toISOString(),
        attempted: true,
        op: { kind: 'comment', path: `/spaces/${spaceId}`, markdown: 'maybe sent' },
      },
    ]),
  );
  await outbox.flush();
  expect(outbox.size).toBe(0);
  const comments = (await t.client.spaces.listCommentsInSpace(spaceId)).data.items;
  expect(comments.map((c) => (c.body as { markdown: string }).markdown)).not.toContain('maybe sent');
});
