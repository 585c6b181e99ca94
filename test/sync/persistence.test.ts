import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Db } from '../../sync-server/store/db';
import { openPglite } from '../../sync-server/store/pglite';
import { openPostgres } from '../../sync-server/store/postgres';
import { migrate } from '../../sync-server/store/migrate';
import { DocHub } from '../../sync-server/docs/hub';
import { testBackend } from '../helpers/server';
import { durableStorage, type DurableStorage } from '../helpers/durable-server';
import { sleep, waitFor } from '../helpers/wait';

/**
 * The update log and its compaction, on the real database of the project
 * (PGlite or PostgreSQL): compaction bounds the log, never loses an update
 * appended while it runs, and loading = state + tail reproduces the document.
 */

let storage: DurableStorage;
let db: Db;
const hubs: DocHub[] = [];

beforeAll(async () => {
  storage = await durableStorage();
  db = testBackend() === 'postgres' ? await openPostgres(storage.env.FOLIO_DATABASE_URL!) : await openPglite(undefined);
  await migrate(db);
});
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
});
afterAll(async () => {
  await db?.close();
  await storage?.cleanup();
});

function hub(options: ConstructorParameters<typeof DocHub>[1] = {}): DocHub {
  const h = new DocHub(db, { idleUnloadMs: 60_000, ...options }, { error: () => undefined, warn: () => undefined });
  hubs.push(h);
  return h;
}

/** One small update, as an editor makes them: a Y.Array push on a scratch doc seeded with the same client. */
function itemUpdate(source: Y.Doc, value: number): Uint8Array {
  let captured: Uint8Array | undefined;
  const listener = (u: Uint8Array) => (captured = u);
  source.on('update', listener);
  source.getArray<number>('items').push([value]);
  source.off('update', listener);
  return captured!;
}

const items = (doc: Y.Doc) => doc.getArray<number>('items').toArray();

describe('update log and compaction', () => {
  it('bounds the log by compacting, and a cold load reproduces the document', async () => {
    const name = `t/${Date.now()}/bounded`;
    const h = hub({ compactAfterUpdates: 50 });
    for (let i = 0; i < 400; i++) await h.change(name, (doc) => doc.getArray<number>('items').push([i]));
    await h.flush();
    await waitFor(async () => (await h.store.tailStats(name)).count < 50, 10_000, 'compaction');
    const stored = await h.store.load(name);
    expect(stored.state).toBeDefined();
    expect(stored.tail.length).toBeLessThan(50);
    const cold = hub();
    expect(await cold.withDoc(name, items)).toEqual(Array.from({ length: 400 }, (_, i) => i));
  });

  it('never loses updates appended while a compaction runs', async () => {
    const name = `t/${Date.now()}/race`;
    const h = hub({ compactAfterUpdates: Number.POSITIVE_INFINITY });
    const source = new Y.Doc();
    await h.store.append(Array.from({ length: 100 }, (_, i) => ({ doc: name, data: itemUpdate(source, i) })));
    for (let round = 0; round < 5; round++) {
      // Committed before the compaction starts, so every round has a tail to merge whatever the scheduling
      // (on PostgreSQL the previous round's appends may already have been merged).
      await h.store.append([{ doc: name, data: itemUpdate(source, 2000 + round) }]);
      // Issued right after the compaction started: they commit between its read and its write.
      const compaction = h.store.compact(name);
      const appends = [0, 1, 2].map((k) =>
        h.store.append([{ doc: name, data: itemUpdate(source, 1000 + round * 10 + k) }]),
      );
      const [result] = await Promise.all([compaction, ...appends]);
      expect(result?.merged).toBeGreaterThan(0);
    }
    const doc = new Y.Doc();
    const stored = await h.store.load(name);
    for (const part of [stored.state!, ...stored.tail.map((r) => r.data)]) Y.applyUpdate(doc, part);
    expect(items(doc)).toEqual(items(source));
    expect(items(doc)).toHaveLength(120);
  });

  it('lets only one of two concurrent compactors (two processes) write, losing nothing', async () => {
    const name = `t/${Date.now()}/two`;
    const a = hub({ compactAfterUpdates: Number.POSITIVE_INFINITY });
    const b = hub({ compactAfterUpdates: Number.POSITIVE_INFINITY });
    const source = new Y.Doc();
    await a.store.append(Array.from({ length: 200 }, (_, i) => ({ doc: name, data: itemUpdate(source, i) })));
    const results = await Promise.all([a.store.compact(name), b.store.compact(name)]);
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(await hub().withDoc(name, items)).toEqual(items(source));
  });

  it('skips a corrupt log row on load and drops it at compaction, keeping the rest', async () => {
    const name = `t/${Date.now()}/corrupt`;
    const h = hub({ compactAfterUpdates: Number.POSITIVE_INFINITY });
    const source = new Y.Doc();
    await h.store.append([{ doc: name, data: itemUpdate(source, 1) }]);
    await db.query('INSERT INTO doc_updates (doc, data) VALUES ($1, $2)', [
      name,
      Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    ]);
    await h.store.append([{ doc: name, data: itemUpdate(source, 2) }]);
    expect(await h.withDoc(name, items)).toEqual([1, 2]);
    expect((await h.store.compact(name))?.dropped).toBe(1);
    expect(await hub().withDoc(name, items)).toEqual([1, 2]);
  });

  it('unloads a document nobody holds after the idle delay, and reloads it on demand', async () => {
    const name = `t/${Date.now()}/idle`;
    const h = hub({ idleUnloadMs: 50 });
    await h.change(name, (doc) => doc.getArray<number>('items').push([7]));
    await waitFor(() => !h.isLoaded(name), 5_000, 'unload');
    const lease = await h.open(name);
    expect(items(lease.doc)).toEqual([7]);
    await sleep(120);
    expect(h.isLoaded(name)).toBe(true);
    lease.release();
    await waitFor(() => !h.isLoaded(name), 5_000, 'unload after release');
  });

  it('removes everything stored for a document', async () => {
    const name = `t/${Date.now()}/removed`;
    const h = hub({ compactAfterUpdates: 2 });
    for (let i = 0; i < 5; i++) await h.change(name, (doc) => doc.getArray<number>('items').push([i]));
    await h.remove(name);
    expect(await h.store.load(name)).toMatchObject({ state: undefined, tail: [] });
    expect(await hub().withDoc(name, items)).toEqual([]);
  });
});
