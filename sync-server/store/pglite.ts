import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db';
import { KeyedMutex } from './locks';
import { lockEmbeddedDatabase } from './pglite-lock';

/**
 * Opens the embedded PGlite database. `dataDir` undefined keeps it in memory
 * (tests); otherwise it lives in that folder and survives restarts, and one
 * process at a time holds it (EmbeddedDatabaseBusyError for the next).
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const unlock = dataDir ? await lockEmbeddedDatabase(dataDir) : async () => undefined;
  let pg: PGlite;
  try {
    pg = dataDir ? new PGlite(dataDir) : new PGlite();
    await pg.waitReady;
  } catch (err) {
    await unlock();
    throw err;
  }
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<T>(sql, params as unknown[]);
      return res.rows;
    },
  });
  const base = wrap(pg);
  const locks = new KeyedMutex();
  return {
    kind: 'pglite',
    query: base.query,
    // PGlite is a single connection; its own transaction() holds an exclusive
    // lock, so transactions never interleave.
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    withLock: (key, fn, options) => locks.withLock(key, fn, options),
    close: async () => {
      try {
        await pg.close();
      } finally {
        await unlock();
      }
    },
  };
}
