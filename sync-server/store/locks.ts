import type pg from 'pg';
import type { LockOutcome } from './db';

/**
 * Named locks for the two engines. PGlite belongs to one process, so an
 * in-process mutex per key is the whole story there; PostgreSQL is shared by
 * several server processes, so its locks are session advisory locks held on a
 * connection of their own.
 */

/** In-process mutex per key (PGlite). */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async withLock<T>(key: string, fn: () => Promise<T>, options: { wait?: boolean } = {}): Promise<LockOutcome<T>> {
    const previous = this.tails.get(key);
    if (previous && options.wait === false) return { acquired: false };
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = (previous ?? Promise.resolve()).then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return { acquired: true, value: await fn() };
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * PostgreSQL advisory locks. They come from a pool of their own: a holder keeps
 * its connection for as long as `fn` runs, and `fn` queries through the main
 * pool — sharing one pool, ten holders could starve their own queries and
 * deadlock. If the process dies, PostgreSQL ends the session and frees the lock.
 */
export class AdvisoryLocks {
  constructor(private readonly pool: pg.Pool) {}

  async withLock<T>(key: string, fn: () => Promise<T>, options: { wait?: boolean } = {}): Promise<LockOutcome<T>> {
    const client = await this.pool.connect();
    // A checked-out client whose session dies emits 'error'; unhandled, that would crash the process.
    // The unlock below then fails and the connection is destroyed.
    const onError = () => undefined;
    client.on('error', onError);
    let held = false;
    try {
      if (options.wait === false) {
        const rows = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [
          key,
        ]);
        if (!rows.rows[0]?.ok) return { acquired: false };
      } else {
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      }
      held = true;
      return { acquired: true, value: await fn() };
    } finally {
      let broken = false;
      if (held) {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {
          broken = true;
        });
      }
      client.off('error', onError);
      // A connection whose unlock failed may still hold the lock: destroy it so the session ends.
      client.release(broken ? true : undefined);
    }
  }
}
