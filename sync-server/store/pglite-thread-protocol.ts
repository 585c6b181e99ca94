/**
 * The messages between the server's main thread (pglite-thread-db.ts) and the
 * worker thread that owns the embedded database (pglite-thread.ts). Values
 * (parameters, rows) cross by structured clone: Date, Uint8Array, bigint and
 * plain objects arrive as they were sent.
 */

/** What the thread is started with (workerData). */
export interface ThreadData {
  /** The database's folder: locked, provisioned from the template when missing, and opened. */
  dataDir: string;
}

/** A call from the main thread; `tx` names the open transaction a query or exec runs in. */
export type ThreadRequest = { id: number } & (
  | { op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { op: 'exec'; sql: string }
  | { op: 'begin'; tx: number }
  | { op: 'commit'; tx: number }
  | { op: 'rollback'; tx: number }
  | { op: 'close' }
);

/** A database error as plain data: its name, message and Postgres fields (code, detail, constraint…). */
export interface ThreadError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

/** The worker's answer to one call, or (id OPENED) whether the database opened. */
export type ThreadReply = { id: number } & ({ ok: true; value?: unknown } | { ok: false; error: ThreadError });

/** The id of the reply that says whether the database opened. */
export const OPENED = 0;

/** An error's name, message and primitive own fields, to send across threads (a thrown Error loses its fields in a clone). */
export function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(err))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  return { name: err.name, message: err.message, fields };
}

/** The error again on this side: an Error with the same name, message and fields, and this thread's stack. */
export function fromThreadError(error: ThreadError): Error {
  const err = Object.assign(new Error(error.message), error.fields);
  err.name = error.name;
  return err;
}
