import type { Db, Queryable } from './db';

/**
 * A Db to hand out before the database is ready: a call made while `ready` is
 * pending waits for it, and once it has resolved calls go straight through.
 * startServer builds its services and routes with one while the database
 * opens and migrates, so none of their queries runs before the migrations
 * (and a failed open fails those calls with the open's error).
 */
export function whenReady(kind: Db['kind'], ready: Promise<Db>): Db {
  let db: Db | undefined;
  ready.then(
    (opened) => (db = opened),
    () => undefined,
  );
  return {
    kind,
    query: <T extends object>(sql: string, params?: readonly unknown[]) =>
      db ? db.query<T>(sql, params) : ready.then((d) => d.query<T>(sql, params)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      db ? db.transaction(fn) : ready.then((d) => d.transaction(fn)),
    exec: (sql) => (db ? db.exec(sql) : ready.then((d) => d.exec(sql))),
    withLock: (key, fn, options) =>
      db ? db.withLock(key, fn, options) : ready.then((d) => d.withLock(key, fn, options)),
    // Nothing to close when it never opened.
    close: () =>
      ready.then(
        (d) => d.close(),
        () => undefined,
      ),
  };
}
