import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError, type Db, type Queryable } from './db';
import { KeyedMutex } from './locks';
import {
  fromThreadError,
  OPENED,
  type ThreadData,
  type ThreadReply,
  type ThreadRequest,
} from './pglite-thread-protocol';

/** Set by scripts/build-server.mjs in the compiled server: the thread's own bundle, relative to this file. */
declare const FOLIO_COMPILED_PGLITE_THREAD: string | undefined;
/** From the sources, an entry that loads pglite-thread.ts through tsx; compiled, the plain-JS bundle. */
const THREAD_FILE = fileURLToPath(
  new URL(
    typeof FOLIO_COMPILED_PGLITE_THREAD === 'string' ? FOLIO_COMPILED_PGLITE_THREAD : './pglite-thread-entry.mjs',
    import.meta.url,
  ),
);

/** Where the embedded database lives in a data folder. */
export const embeddedDatabaseDir = (dataDir: string) => join(dataDir, 'pglite');

type Call = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The embedded database on disk, run by a worker thread of its own
 * (pglite-thread.ts), behind the same Db interface as in-process PGlite.
 *
 * Why a thread: opening PGlite is ~0.3-0.4 s of CPU (its wasm start, Postgres
 * reading its catalogs), and in one thread it ran after the server's modules
 * had loaded and before its routes were registered, end to end. On its own
 * thread it opens while the main thread loads and builds the server (main.ts
 * starts it first), and queries run beside the event loop instead of on it.
 * PGlite's wasm is read and compiled there too.
 * A query costs a message each way (tens of µs) on top of PGlite's own time.
 *
 * The thread takes the folder's lock and gives it back on close; a busy folder
 * fails the open with the lock's error (EmbeddedDatabaseBusyError's name,
 * message and fields). If the thread dies, every pending and later call fails
 * with DatabaseUnavailableError (the HTTP layer answers 503), and the lock
 * file, which names this process, is taken over by the next start as any
 * stale lock is.
 */
export async function openPgliteThread(dataDir: string): Promise<Db> {
  // Started at once (no await before it): main.ts goes on to load the server's modules meanwhile.
  const workerData: ThreadData = { dataDir };
  // The thread inherits Node's flags (the tsx loader under the tests), but a thread started from a
  // file refuses --input-type, which a parent run as `node --input-type=module -e …` has: then the
  // flags are passed without it (V8's own flags are not accepted there, and are process-wide anyway).
  const inputType = (arg: string) => arg.startsWith('--input-type');
  const execArgv = process.execArgv.some(inputType) ? process.execArgv.filter((arg) => !inputType(arg)) : undefined;
  const worker = new Worker(THREAD_FILE, { workerData, execArgv });
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let nextId = OPENED + 1;
  let failure: Error | undefined;
  let closed = false;

  // The thread keeps the process alive only while a call is waiting on it, as an in-process PGlite
  // (which holds no handle) did: the admin CLI exits once its work is done.
  const holdProcess = () => (pending.size > 0 ? worker.ref() : worker.unref());

  const fail = (err: Error) => {
    failure ??= new DatabaseUnavailableError(err);
    for (const call of pending.values()) call.reject(failure);
    pending.clear();
    holdProcess();
  };
  worker.on('message', (message: ThreadReply) => {
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    holdProcess();
    if (message.ok) call.resolve(message.value);
    else call.reject(fromThreadError(message.error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!closed) fail(new Error(`the embedded database's thread exited (code ${code})`));
  });

  /** The reply to `id`, once it comes. */
  const expect = <T>(id: number): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const reply = new Promise<T>((resolve, reject) =>
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
    holdProcess();
    return reply;
  };
  const call = <T>(request: Call): Promise<T> => {
    const id = nextId++;
    const reply = expect<T>(id);
    if (!failure) worker.postMessage({ id, ...request });
    return reply;
  };

  try {
    await expect(OPENED);
  } catch (err) {
    closed = true;
    await worker.terminate();
    // The thread's own error (the folder could not be provisioned or opened), not a generic one.
    throw err instanceof DatabaseUnavailableError && err.cause instanceof Error ? err.cause : err;
  }

  const queryable = (tx?: number): Queryable => ({
    query: <T extends object>(sql: string, params: readonly unknown[] = []) =>
      call<T[]>({ op: 'query', sql, params, tx }),
  });
  const locks = new KeyedMutex();
  let nextTransaction = 1;
  return {
    kind: 'pglite',
    query: queryable().query,
    async transaction(fn) {
      const tx = nextTransaction++;
      await call({ op: 'begin', tx });
      let value;
      try {
        value = await fn(queryable(tx));
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'commit', tx });
      return value;
    },
    exec: (sql) => call<void>({ op: 'exec', sql }),
    withLock: (key, fn, options) => locks.withLock(key, fn, options),
    async close() {
      try {
        // The thread gives the folder's lock back once PGlite has closed.
        if (!failure) await call({ op: 'close' });
      } finally {
        closed = true;
        failure ??= new Error('the embedded database is closed');
        await worker.terminate();
      }
    },
  };
}
