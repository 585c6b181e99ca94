import type { Db, Queryable } from './db';
import { ReadCache, type WithReadCache } from './read-cache';

/**
 * Statements that may change data. Word boundaries keep column names such as
 * `updated_at` or `deleted_at` from matching; a false positive (SELECT … FOR
 * UPDATE) only costs an unnecessary invalidation.
 */
const WRITE = /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|CREATE|ALTER|DROP)\b/i;

/**
 * Wraps a database so that every statement that may write invalidates the
 * read cache, right after it runs and again when its transaction ends. The
 * second invalidation matters for PostgreSQL: a concurrent read between the
 * statement and the commit still sees the old rows and may cache them.
 */
/** A database whose writes invalidate its read cache. */
export type CachingDb = Db & WithReadCache;

export function withReadCache(db: Db, cache = new ReadCache()): CachingDb {
  const tracked = (q: Queryable): Queryable => ({
    async query(sql, params) {
      try {
        return await q.query(sql, params);
      } finally {
        if (WRITE.test(sql)) cache.invalidate();
      }
    },
  });
  const top = tracked(db);
  return {
    kind: db.kind,
    cache,
    query: top.query,
    async transaction(fn) {
      try {
        return await db.transaction((tx) => fn(tracked(tx)));
      } finally {
        cache.invalidate();
      }
    },
    async exec(sql) {
      try {
        await db.exec(sql);
      } finally {
        cache.invalidate();
      }
    },
    withLock: (key, fn, options) => db.withLock(key, fn, options),
    close: () => db.close(),
  };
}
