import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadCache, cachedQuery, cachedRead } from '../../sync-server/store/read-cache';
import { withReadCache } from '../../sync-server/store/caching-db';
import { openPglite } from '../../sync-server/store/pglite';
import type { Db } from '../../sync-server/store/db';

describe('ReadCache', () => {
  it('serves hits, and nothing from before an invalidation', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never stores a value whose load began before a write', async () => {
    const cache = new ReadCache();
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((r) => (release = () => r('stale'))));
    cache.invalidate(); // a write lands while the read is in flight
    release();
    expect(await slow).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('expires entries after the TTL and stays within its size bound', async () => {
    let now = 0;
    const cache = new ReadCache(2, 1000, () => now);
    await cache.get('a', async () => 'a1');
    now = 1500;
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    await cache.get('b', async () => 'b');
    await cache.get('c', async () => 'c');
    expect(await cache.get('a', async () => 'a3')).toBe('a3'); // evicted as the oldest
  });
});

describe('withReadCache over a real database', () => {
  let db: Db & { cache: ReadCache };
  beforeAll(async () => {
    db = withReadCache(await openPglite(undefined));
    await db.exec('CREATE TABLE notes (id int PRIMARY KEY, body text)');
    await db.query("INSERT INTO notes VALUES (1, 'one')");
  });
  afterAll(async () => {
    await db.close();
  });

  it('invalidates on every writing statement and transaction', async () => {
    const read = () => cachedQuery<{ body: string }>(db, 'SELECT body FROM notes WHERE id = $1', [1]);
    expect((await read())[0]!.body).toBe('one');
    await db.query("UPDATE notes SET body = 'two' WHERE id = 1");
    expect((await read())[0]!.body).toBe('two');
    await db.transaction(async (tx) => {
      await tx.query("UPDATE notes SET body = 'three' WHERE id = 1");
      // Inside a transaction reads bypass the cache and see the transaction's own writes.
      expect((await cachedQuery<{ body: string }>(tx, 'SELECT body FROM notes WHERE id = $1', [1]))[0]!.body).toBe(
        'three',
      );
    });
    expect((await read())[0]!.body).toBe('three');
  });

  it('does not invalidate on reads, even of columns named like verbs', async () => {
    let loads = 0;
    await cachedRead(db, 'x', async () => ++loads);
    await db.query('SELECT 1 AS updated_at, 2 AS deleted_at');
    expect(await cachedRead(db, 'x', async () => ++loads)).toBe(1);
  });
});

describe('Lru', () => {
  it('evicts the least recently used entry, by count and by weight', async () => {
    const { Lru } = await import('../../sync-server/store/lru');
    const byCount = new Lru<string, number>(2);
    byCount.set('a', 1);
    byCount.set('b', 2);
    byCount.get('a');
    byCount.set('c', 3);
    expect([byCount.get('a'), byCount.get('b'), byCount.get('c')]).toEqual([1, undefined, 3]);
    const byWeight = new Lru<string, string>(100, { maxWeight: 10, weigh: (v) => v.length });
    byWeight.set('x', '123456');
    byWeight.set('y', '12345');
    expect(byWeight.get('x')).toBeUndefined();
    expect(byWeight.get('y')).toBe('12345');
    byWeight.set('huge', 'x'.repeat(11));
    expect(byWeight.get('huge')).toBeUndefined();
    expect(byWeight.get('y')).toBe('12345');
  });
});
