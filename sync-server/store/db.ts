/**
 * The storage boundary: one small interface implemented over PGlite (embedded
 * default) and PostgreSQL (pg). Everything above it speaks plain parameterized
 * PostgreSQL-dialect SQL.
 */
export type Row = Record<string, unknown>;

/** Something that can run a query: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one parameterized statement ($1, $2, ...) and returns its rows. */
  query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  /** Which engine this is; used only for diagnostics. */
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` inside one transaction: committed when it resolves, rolled back
   * when it throws (the error is rethrown).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` holding the lock named `key` across every process sharing this
   * database (PostgreSQL advisory lock; an in-process mutex on PGlite, which one
   * process owns). `wait: false` gives up at once when another holder has it
   * and resolves `{ acquired: false }` without running `fn`. The lock is freed
   * when `fn` settles, or by the database if this process dies.
   */
  withLock<T>(key: string, fn: () => Promise<T>, options?: { wait?: boolean }): Promise<LockOutcome<T>>;
  close(): Promise<void>;
}

/** What withLock did: ran `fn` (with its value) or found the lock taken. */
export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/** Thrown when the database cannot be reached; the HTTP layer answers 503. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Helper for the common "zero or one row" read. */
export async function queryOne<T extends object>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}
