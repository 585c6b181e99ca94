import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { gitbookClient, TEST_ADMIN_TOKEN } from '../helpers/server';
import { expectError, raw } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { TcpProxy } from '../helpers/tcp-proxy';
import { SyncClients, synced, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';
import { startCluster, type Cluster } from '../helpers/processes';
import { PrivateRedis } from '../helpers/redis';

/**
 * Faults across two server processes: one is killed mid-stream, Redis
 * restarts, PostgreSQL goes away. Clients are stock y-websocket providers;
 * each writes markers into one page, so "nothing lost" is a set check.
 */
const clients = new SyncClients();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  clients.destroyAll();
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function cluster(options: Parameters<typeof startCluster>[1] = {}): Promise<Cluster> {
  const c = await startCluster(2, options);
  cleanups.push(() => c.close());
  return c;
}

/** A space with one empty page, created through REST on `url`; returns ids. */
async function spaceWithPage(
  url: string,
  options: { waitForRest?: boolean } = {},
): Promise<{ spaceId: string; pageId: string }> {
  const api = gitbookClient(url);
  const orgId = (await api.orgs.createOrganization({ title: 'Faults' })).data.id;
  const spaceId = (await api.orgs.createSpace(orgId, { title: 'Stream' })).data.id;
  const seed = client(url, spaceId);
  await synced(seed);
  const pageId = new ContentDoc(seed.doc).createPage({ title: 'Stream', markdown: '' });
  if (options.waitForRest !== false) {
    await waitFor(
      async () =>
        (await raw({ url }, 'GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, { token: TEST_ADMIN_TOKEN }))
          .status === 200,
      15_000,
      'the page',
    );
  }
  return { spaceId, pageId };
}

/** A stock client (as the instance admin) of the space's content on the process at `url`, closed after the test. */
const client = (url: string, spaceId: string): Client => clients.connect(url, spaceId);

/** The page's text on a client ('' until the client has the page). */
const body = (c: Client, pageId: string) => {
  const content = new ContentDoc(c.doc);
  return content.getPage(pageId) ? content.pageBody(pageId).toString() : '';
};
const markers = (text: string) => new Set(text.match(/<[^>]+>/g) ?? []);

/** Every client appends a marker every `everyMs` until stopped. */
function stream(writers: Client[], pageId: string, everyMs = 15): { stop(): void; written: Set<string> } {
  const written = new Set<string>();
  let n = 0;
  const timer = setInterval(() => {
    writers.forEach((c, i) => {
      const content = new ContentDoc(c.doc);
      if (!content.getPage(pageId)) return;
      const text = content.pageBody(pageId);
      const marker = `<${i}.${n}>`;
      text.insert(text.length, marker);
      written.add(marker);
    });
    n++;
  }, everyMs);
  return { stop: () => clearInterval(timer), written };
}

describe('faults with two server processes', () => {
  it('kill -9 of one process during a stream of edits: clients reconnect to the other and nothing they had received is lost', async () => {
    const c = await cluster();
    const [a, b] = c.processes;
    const balancer = await TcpProxy.start(c.processes.map((p) => ({ host: '127.0.0.1', port: p.port })));
    cleanups.push(() => balancer.close());
    const { spaceId, pageId } = await spaceWithPage(b!.url);
    // Round robin: half of the writers land on each process.
    const writers = Array.from({ length: 6 }, () => client(balancer.url, spaceId));
    await Promise.all(writers.map((w) => synced(w)));
    await waitFor(() => writers.every((w) => new ContentDoc(w.doc).getPage(pageId)), 10_000, 'the page everywhere');
    const run = stream(writers, pageId);
    await sleep(400);
    a!.crash();
    // What every client holds at the crash: received from others (committed before it was sent) or its own.
    const heldAtCrash = new Set(writers.flatMap((w) => [...markers(body(w, pageId))]));
    await sleep(600);
    run.stop();
    const witness = client(b!.url, spaceId);
    await synced(witness);
    await waitFor(
      () => writers.every((w) => w.provider.wsconnected && body(w, pageId) === body(witness, pageId)),
      20_000,
      'convergence on the surviving process',
    );
    const final = markers(body(witness, pageId));
    const lost = [...heldAtCrash].filter((m) => !final.has(m));
    expect(lost).toEqual([]);
    // Writers kept their own edits across the crash and re-sent them: every marker written arrived.
    expect([...run.written].filter((m) => !final.has(m))).toEqual([]);
  });

  it('restart of Redis during edits: convergence resumes', async () => {
    const redis = await PrivateRedis.start();
    cleanups.push(() => redis.stop());
    // No revisions during this test: cutting one also catches a document up from the database,
    // and this test is about the catch-up after Redis reconnects.
    const c = await cluster({ redisUrl: redis.url, env: { FOLIO_REVISION_QUIET_MS: '600000' } });
    const [a, b] = c.processes;
    const { spaceId, pageId } = await spaceWithPage(a!.url, { waitForRest: false });
    const writers = [
      client(a!.url, spaceId),
      client(a!.url, spaceId),
      client(b!.url, spaceId),
      client(b!.url, spaceId),
    ];
    await Promise.all(writers.map((w) => synced(w)));
    await waitFor(() => writers.every((w) => new ContentDoc(w.doc).getPage(pageId)), 10_000, 'the page everywhere');
    const run = stream(writers, pageId);
    await sleep(300);
    await redis.stop();
    await sleep(500);
    await redis.restart();
    await sleep(300);
    run.stop();
    await waitFor(
      () => writers.every((w) => body(w, pageId) === body(writers[0]!, pageId)),
      20_000,
      'convergence after Redis came back',
    );
    const final = markers(body(writers[0]!, pageId));
    expect([...run.written].filter((m) => !final.has(m))).toEqual([]);
    // And live fan-out works again, not only the catch-up.
    new ContentDoc(writers[0]!.doc).pageBody(pageId)!.insert(0, '<after>');
    await waitFor(() => body(writers[3]!, pageId).startsWith('<after>'), 10_000, 'a live edit across processes');
  });

  it('PostgreSQL stopped briefly: writes answer 503 (no hang, no crash) and succeed after it returns', async () => {
    const db = await freshPostgresDatabase('folio_cluster_pg');
    cleanups.push(() => db.drop());
    const real = new URL(db.url);
    const relay = await TcpProxy.start([{ host: real.hostname, port: Number(real.port || 5432) }]);
    cleanups.push(() => relay.close());
    const viaRelay = new URL(db.url);
    viaRelay.port = String(relay.port);
    const c = await cluster({ databaseUrl: viaRelay.toString() });
    const [a, b] = c.processes;
    const { spaceId, pageId } = await spaceWithPage(a!.url);
    const api = gitbookClient(b!.url);
    const orgId = (await api.spaces.getSpaceById(spaceId)).data.organization;
    const writer = client(a!.url, spaceId);
    await synced(writer);

    relay.cut();
    for (const p of [a!, b!]) {
      const res = await raw({ url: p.url }, 'POST', `/v1/orgs/${orgId}/spaces`, {
        token: TEST_ADMIN_TOKEN,
        body: { title: 'During the outage' },
      });
      expectError(res, 503, /unavailable/i);
      expect(res.headers.get('retry-after')).toBeTruthy();
    }
    // The writer keeps editing offline-from-the-database; its edits wait on its side.
    await waitFor(() => new ContentDoc(writer.doc).pageBody(pageId), 10_000, 'the page body');
    new ContentDoc(writer.doc).pageBody(pageId)!.insert(0, '<during-outage>');
    await sleep(300);
    relay.restore();

    await waitFor(
      async () =>
        (
          await raw({ url: b!.url }, 'POST', `/v1/orgs/${orgId}/spaces`, {
            token: TEST_ADMIN_TOKEN,
            body: { title: 'After' },
          })
        ).status === 201,
      20_000,
      'writes after the database returned',
    );
    const reader = client(b!.url, spaceId);
    await synced(reader, 20_000);
    await waitFor(
      () => body(reader, pageId).includes('<during-outage>'),
      20_000,
      'the edit made during the outage, on the other process',
    );
    // Both processes are still alive.
    for (const p of [a!, b!]) expect((await raw({ url: p.url }, 'GET', '/readyz')).status).toBe(200);
  });
});
