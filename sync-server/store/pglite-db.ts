import type { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db';
import { KeyedMutex } from './locks';

/**
 * The Db interface over one open PGlite instance. `onClose` runs after PGlite
 * has closed, even when closing failed (openPglite frees the folder's lock there).
 */
export function pgliteDb(pg: PGlite, onClose: () => Promise<void> = async () => undefined): Db {
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
        await onClose();
      }
    },
  };
}
