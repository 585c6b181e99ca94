import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { DiscussionDoc } from '../../shared/discussion';
import { gitbookClient, TEST_ADMIN_TOKEN } from '../helpers/server';
import { asTestServer } from '../helpers/durable-server';
import { newMember } from '../helpers/members';
import { openPostgres } from '../../sync-server/store/postgres';
import { raw } from '../helpers/api';
import { SyncClients, synced, type Client, type SyncDocument } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';
import { spawnFolio, startCluster, type Cluster } from '../helpers/processes';

/**
 * Two server processes on different ports sharing the machine's PostgreSQL and
 * Redis: a document edited through both converges, REST on one serves what was
 * edited through the other, comments reach sockets on the other process, and
 * a write on one is seen by the other's cached reads at once.
 */
let cluster: Cluster;
let a: string;
let b: string;
let apiA: GitBookAPI;
let apiB: GitBookAPI;
let orgId: string;
const clients = new SyncClients();
/** A stock client (as the instance admin) of a document on the process at `url`, closed after the suite. */
const client = (url: string, document: SyncDocument): Client => clients.connect(url, document);

beforeAll(async () => {
  cluster = await startCluster(2);
  [a, b] = cluster.processes.map((p) => p.url) as [string, string];
  apiA = gitbookClient(a);
  apiB = gitbookClient(b);
  orgId = (await apiA.orgs.createOrganization({ title: 'Cluster Org' })).data.id;
}, 120_000);
afterAll(async () => {
  clients.destroyAll();
  await cluster?.close();
});

describe('two server processes', () => {
  it('y-websocket clients on each process edit one document and converge', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Shared' })).data.id;
    const onA = [client(a, spaceId), client(a, spaceId)];
    const onB = [client(b, spaceId), client(b, spaceId)];
    const all = [...onA, ...onB];
    await Promise.all(all.map((c) => synced(c)));
    const pageId = new ContentDoc(onA[0]!.doc).createPage({ title: 'Together', markdown: '' });
    await waitFor(() => all.every((c) => new ContentDoc(c.doc).getPage(pageId)), 10_000, 'the page on every client');
    for (let round = 0; round < 20; round++) {
      all.forEach((c, i) => new ContentDoc(c.doc).pageBody(pageId)!.insert(0, `[${i}:${round}]`));
    }
    const body = (c: Client) => new ContentDoc(c.doc).pageBody(pageId)!.toString();
    const expectedLength = all.reduce(
      (sum, _c, i) => sum + Array.from({ length: 20 }, (_, r) => `[${i}:${r}]`.length).reduce((x, y) => x + y, 0),
      0,
    );
    await waitFor(
      () => all.every((c) => body(c) === body(all[0]!)) && body(all[0]!).length === expectedLength,
      15_000,
      'convergence',
    );
    for (let i = 0; i < 4; i++)
      for (let round = 0; round < 20; round++) expect(body(all[0]!)).toContain(`[${i}:${round}]`);
    // Each process applied the other's updates, and its metrics say so and how long they took.
    for (const url of [a, b]) {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^folio_fanout_remote_lag_seconds_count [1-9]/m);
      expect(metrics).toMatch(/^folio_fanout_messages_received_total [1-9]/m);
      expect(metrics).toMatch(/^folio_fanout_messages_published_total [1-9]/m);
      expect(metrics).toMatch(/^folio_redis_connected 1$/m);
    }
  });

  it('a process started late serves the document as it stands, and joins the live fan-out', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Late joiner' })).data.id;
    const early = client(a, spaceId);
    await synced(early);
    const pageId = new ContentDoc(early.doc).createPage({ title: 'Before C', markdown: 'Written before C started.\n' });
    const c = await spawnFolio(cluster.env);
    try {
      const late = client(c.url, spaceId);
      await synced(late);
      await waitFor(
        () =>
          new ContentDoc(late.doc).getPage(pageId) &&
          new ContentDoc(late.doc).pageBody(pageId).toString().includes('Written before C started.'),
        10_000,
        'the document on C',
      );
      new ContentDoc(late.doc).pageBody(pageId).insert(0, 'From C. ');
      await waitFor(
        () => new ContentDoc(early.doc).pageBody(pageId).toString().startsWith('From C. '),
        10_000,
        "C's edit on A",
      );
    } finally {
      await c.stop();
    }
  });

  it('serves through REST on process A what was edited through process B', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Edited on B' })).data.id;
    const editor = client(b, spaceId);
    await synced(editor);
    const pageId = new ContentDoc(editor.doc).createPage({ title: 'From B', markdown: 'Typed on process **B**.\n' });
    const page = await waitFor(
      async () => {
        const res = await raw({ url: a }, 'GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, {
          token: TEST_ADMIN_TOKEN,
        });
        return res.status === 200 ? (res.body as { title: string; markdown?: string }) : undefined;
      },
      15_000,
      'the page through REST on A',
    );
    expect(page!.title).toBe('From B');
    expect(page!.markdown).toContain('Typed on process **B**.');
    // The space's current revision is the same row on both processes.
    const [revA, revB] = await Promise.all([apiA.spaces.getSpaceById(spaceId), apiB.spaces.getSpaceById(spaceId)]);
    expect(revA.data.revision).toBe(revB.data.revision);
  });

  it('delivers a comment posted on A live to a socket on B', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Discussed' })).data.id;
    const reader = client(b, { spaceId, kind: 'discussion' });
    await synced(reader);
    const live = new DiscussionDoc(reader.doc);
    const posted = (await apiA.spaces.postCommentInSpace(spaceId, { body: { markdown: 'Posted on **A**' } })).data;
    const seen = await waitFor(() => live.getComment(posted.id), 10_000, 'the comment on B');
    expect(seen!.markdown).toBe('Posted on **A**');
    await apiA.spaces.updateCommentInSpace(spaceId, posted.id, { resolved: true });
    await waitFor(() => live.getComment(posted.id)?.resolvedAt, 10_000, 'the resolution on B');
  });

  it('merges on A a change request edited through B; B serves the merged content', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Reviewed' })).data.id;
    const author = client(a, spaceId);
    await synced(author);
    const pageId = new ContentDoc(author.doc).createPage({ title: 'Draft', markdown: 'Main text.\n' });
    const cr = (await apiA.spaces.createChangeRequest(spaceId, { subject: 'Edit on B' })).data;
    const fork = { spaceId, changeRequestId: cr.id, kind: 'content' } as const;
    const editor = client(b, fork);
    const watcher = client(b, fork);
    await Promise.all([synced(editor), synced(watcher)]);
    await waitFor(() => new ContentDoc(editor.doc).getPage(pageId), 10_000, 'the page in the fork');
    new ContentDoc(editor.doc).pageBody(pageId).insert(0, 'Added on B. ');
    // Seen by another client: committed on B (and published to A).
    await waitFor(
      () =>
        new ContentDoc(watcher.doc).getPage(pageId) &&
        new ContentDoc(watcher.doc).pageBody(pageId).toString().startsWith('Added on B.'),
      10_000,
      'the fork edit',
    );
    await apiA.spaces.mergeChangeRequest(spaceId, cr.id);
    const merged = await waitFor(
      async () => {
        const res = await raw({ url: b }, 'GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, {
          token: TEST_ADMIN_TOKEN,
        });
        const markdown = (res.body as { markdown?: string }).markdown ?? '';
        return markdown.includes('Added on B.') ? markdown : undefined;
      },
      15_000,
      'the merged text through REST on B',
    );
    expect(merged).toContain('Main text.');
    expect((await apiB.spaces.getChangeRequestById(spaceId, cr.id)).data.status).toBe('merged');
  });

  it('shows presence (awareness) of a client on A to a client on B', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Presence' })).data.id;
    const alice = client(a, spaceId);
    const bob = client(b, spaceId);
    await Promise.all([synced(alice), synced(bob)]);
    alice.provider.awareness.setLocalStateField('user', { name: 'Alice' });
    await waitFor(
      () => bob.provider.awareness.getStates().get(alice.doc.clientID)?.user?.name === 'Alice',
      10_000,
      "Alice's presence on B",
    );
    alice.destroy();
    await waitFor(() => !bob.provider.awareness.getStates().has(alice.doc.clientID), 10_000, "Alice's departure on B");
  });

  it('drops cached reads on B when A writes: a new title, a removed member', async () => {
    const spaceId = (await apiA.orgs.createSpace(orgId, { title: 'Before' })).data.id;
    // Read on B first so B has the space cached (the cache keeps entries 10 s without fan-out).
    expect((await apiB.spaces.getSpaceById(spaceId)).data.title).toBe('Before');
    await apiA.spaces.updateSpaceById(spaceId, { title: 'After' });
    await waitFor(
      async () => (await apiB.spaces.getSpaceById(spaceId)).data.title === 'After',
      5_000,
      'the new title on B',
    );

    const db = await openPostgres(cluster.env.FOLIO_DATABASE_URL!);
    try {
      const member = await newMember(asTestServer({ url: a, ctx: { db } }), orgId, 'read');
      expect((await raw({ url: b }, 'GET', `/v1/spaces/${spaceId}`, { token: member.token })).status).toBe(200);
      await apiA.orgs.removeMemberFromOrganizationById(orgId, member.id);
      await waitFor(
        async () => (await raw({ url: b }, 'GET', `/v1/spaces/${spaceId}`, { token: member.token })).status === 404,
        5_000,
        'B refusing the removed member',
      );
    } finally {
      await db.close();
    }
  });
});
