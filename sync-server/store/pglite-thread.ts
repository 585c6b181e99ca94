import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { openPgliteInstance } from './pglite';
import { lockEmbeddedDatabase } from './pglite-lock';
import { OPENED, toThreadError, type ThreadData, type ThreadReply, type ThreadRequest } from './pglite-thread-protocol';

/**
 * The worker thread that owns the embedded database (started by
 * pglite-thread-db.ts): it takes the folder's lock, opens PGlite there (its
 * wasm compiled here too, off the main thread), says so, then runs the main
 * thread's calls in the order they come. PGlite's own locks keep a transaction
 * exclusive, as they do in one thread: a query sent while a transaction is
 * open waits for its commit or rollback.
 */

const port = parentPort!;
const { dataDir } = workerData as ThreadData;
const reply = (message: ThreadReply) => port.postMessage(message);

/** Thrown inside PGlite's transaction callback to make it roll back. */
const ROLLBACK = Symbol('rollback');

/** An open transaction: its handle, how to end it, and PGlite's promise of its end. */
interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  done: Promise<void>;
}
const transactions = new Map<number, OpenTransaction>();

/** The lock, then PGlite; the lock is given back if the open fails. */
async function open(): Promise<{ pg: PGlite; unlock: () => Promise<void> }> {
  // The lock file sits beside the folder, so its parent must exist first.
  await mkdir(dirname(dataDir), { recursive: true });
  const unlock = await lockEmbeddedDatabase(dataDir);
  try {
    return { pg: await openPgliteInstance(dataDir), unlock };
  } catch (err) {
    await unlock();
    throw err;
  }
}

const opening = open();
opening.then(
  () => reply({ id: OPENED, ok: true }),
  (err: unknown) => reply({ id: OPENED, ok: false, error: toThreadError(err) }),
);

/** Begins a transaction that stays open until `commit` or `rollback` names it. */
async function begin(pg: PGlite, id: number): Promise<void> {
  let began!: () => void;
  const started = new Promise<void>((resolve) => (began = resolve));
  const done = pg
    .transaction(async (tx) => {
      const commit = await new Promise<boolean>((end) => {
        transactions.set(id, { tx, end, done });
        began();
      });
      if (!commit) throw ROLLBACK;
    })
    .catch((err: unknown) => {
      if (err !== ROLLBACK) throw err;
    })
    .finally(() => transactions.delete(id));
  // BEGIN itself can fail: then `done` settles first, with its error.
  await Promise.race([started, done]);
}

function openTransaction(id: number): OpenTransaction {
  const open = transactions.get(id);
  if (!open) throw new Error(`transaction ${id} is not open (it was committed or rolled back)`);
  return open;
}

async function run(request: ThreadRequest): Promise<unknown> {
  const { pg, unlock } = await opening;
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? pg : openTransaction(request.tx).tx;
      return (await target.query(request.sql, request.params as unknown[])).rows;
    }
    case 'exec':
      await pg.exec(request.sql);
      return undefined;
    case 'begin':
      return begin(pg, request.tx);
    case 'commit':
    case 'rollback': {
      const open = openTransaction(request.tx);
      open.end(request.op === 'commit');
      return open.done;
    }
    case 'close':
      try {
        await pg.close();
      } finally {
        await unlock();
      }
      return undefined;
  }
}

port.on('message', (request: ThreadRequest) => {
  run(request)
    .then(
      (value) => reply({ id: request.id, ok: true, value }),
      (err: unknown) => reply({ id: request.id, ok: false, error: toThreadError(err) }),
    )
    // postMessage throws on a value it cannot clone (none of PGlite's results are such).
    .catch((err: unknown) => reply({ id: request.id, ok: false, error: toThreadError(err) }));
});
