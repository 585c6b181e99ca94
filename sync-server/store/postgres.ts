import pg from 'pg';
import { DatabaseUnavailableError, type Db, type Queryable } from './db';
import { AdvisoryLocks } from './locks';

// Timestamps come back as JS Dates (pg default); bigint counts as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

/** Connection-level failures (server gone, refused, timed out) as opposed to SQL errors. */
function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (!e) return false;
  if (
    e.code &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(
      e.code,
    )
  )
    return true;
  return /Connection terminated|timeout exceeded when trying to connect/i.test(e.message ?? '');
}

function translate(err: unknown): unknown {
  return isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
}

/** Opens a pooled PostgreSQL connection from a postgres:// URL. */
export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server must not crash the process.
  pool.on('error', () => undefined);
  // Lock holders keep a connection while they work; they get a small pool of their own (see AdvisoryLocks).
  const lockPool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
  lockPool.on('error', () => undefined);
  const locks = new AdvisoryLocks(lockPool);
  const run = async <T extends object>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly unknown[] = [],
  ) => {
    try {
      const res = await client.query(sql, params as unknown[]);
      return res.rows as T[];
    } catch (err) {
      throw translate(err);
    }
  };
  const db: Db = {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw translate(err);
      }
      const tx: Queryable = { query: (sql, params) => run(client, sql, params) };
      try {
        await tx.query('BEGIN');
        const result = await fn(tx);
        await tx.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await run(pool, sql);
    },
    async withLock(key, fn, options) {
      try {
        return await locks.withLock(key, fn, options);
      } catch (err) {
        throw translate(err);
      }
    },
    async close() {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
  // Fail fast with a clear error when the server is not there at start.
  await db.query('SELECT 1');
  return db;
}
