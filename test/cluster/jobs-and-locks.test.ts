import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer } from '../../sync-server/server';
import { openPostgres } from '../../sync-server/store/postgres';
import type { Db } from '../../sync-server/store/db';
import { freshPostgresDatabase } from '../helpers/postgres';
import { gitbookClient, TestClock, TEST_ADMIN_TOKEN } from '../helpers/server';
import { raw } from '../helpers/api';

/**
 * Work that must happen once across processes: named locks shared through
 * PostgreSQL, and the purge job run by two servers at the same moment.
 */
let db: Awaited<ReturnType<typeof freshPostgresDatabase>>;
beforeAll(async () => {
  db = await freshPostgresDatabase('folio_locks');
});
afterAll(async () => {
  await db?.drop();
});

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('locks shared through PostgreSQL', () => {
  let first: Db;
  let second: Db;
  beforeAll(async () => {
    first = await openPostgres(db.url);
    second = await openPostgres(db.url);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('lets one holder at a time run; a non-waiting caller gives up, a waiting one runs after', async () => {
    const release = deferred();
    const entered = deferred();
    const order: string[] = [];
    const holding = first.withLock('job:x', async () => {
      entered.resolve();
      order.push('first');
      await release.promise;
      return 'done';
    });
    await entered.promise;
    expect(await second.withLock('job:x', async () => 'ran', { wait: false })).toEqual({ acquired: false });
    const waiting = second.withLock('job:x', async () => order.push('second'));
    // Another key is free meanwhile.
    expect(await second.withLock('job:y', async () => 'other', { wait: false })).toEqual({
      acquired: true,
      value: 'other',
    });
    release.resolve();
    expect(await holding).toEqual({ acquired: true, value: 'done' });
    await waiting;
    expect(order).toEqual(['first', 'second']);
  });

  it('frees the lock when the holder session dies (a killed process)', async () => {
    const entered = deferred();
    const finish = deferred();
    const holding = first.withLock('job:crash', async () => {
      entered.resolve();
      await finish.promise;
    });
    holding.catch(() => undefined);
    await entered.promise;
    expect(await second.withLock('job:crash', async () => 1, { wait: false })).toEqual({ acquired: false });
    // What PostgreSQL does when a process is killed: its session ends.
    await second.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()",
    );
    const after = await second.withLock('job:crash', async () => 1, { wait: true });
    expect(after).toEqual({ acquired: true, value: 1 });
    // The old holder finishes without crashing its process; its dead connection is discarded.
    finish.resolve();
    await holding;
    expect(await first.withLock('job:crash', async () => 2, { wait: false })).toEqual({ acquired: true, value: 2 });
  });
});

describe('the purge job on two processes at once', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('removes a space deleted 7 days ago exactly once', async () => {
    const purgeDb = await freshPostgresDatabase('folio_purge');
    try {
      const clock = new TestClock();
      for (let i = 0; i < 2; i++) {
        const config = loadConfig([], {
          FOLIO_PORT: '0',
          FOLIO_HOST: '127.0.0.1',
          FOLIO_DATABASE_URL: purgeDb.url,
          FOLIO_REDIS_URL: 'redis://127.0.0.1:6379',
          FOLIO_REDIS_PREFIX: `folio-test-purge-${Math.random().toString(36).slice(2, 8)}`,
          FOLIO_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          FOLIO_LOG_LEVEL: 'silent',
        });
        servers.push(await startServer(config, { clock }));
      }
      const api = gitbookClient(servers[0]!.url);
      const orgId = (await api.orgs.createOrganization({ title: 'Purge' })).data.id;
      const ids = await Promise.all(
        [1, 2, 3].map(async (n) => (await api.orgs.createSpace(orgId, { title: `S${n}` })).data.id),
      );
      for (const id of ids) await api.spaces.deleteSpaceById(id);
      clock.advance(8 * 24 * 60 * 60 * 1000);
      const reports = await Promise.all(servers.map((s) => s.jobs.runAll()));
      const purged = reports.map((r) => r.purgedSpaces ?? 0).reduce((x, y) => x + y, 0);
      expect(purged).toBe(3);
      for (const s of servers)
        for (const id of ids)
          expect((await raw({ url: s.url }, 'GET', `/v1/spaces/${id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
    } finally {
      for (const s of servers.splice(0)) await s.close();
      await purgeDb.drop();
    }
  });
});
