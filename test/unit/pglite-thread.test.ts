import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../sync-server/store/db';
import { openPglite } from '../../sync-server/store/pglite';
import { ROOT } from '../helpers/cli-process';

/**
 * The embedded database on disk runs in a worker thread of its own
 * (pglite-thread-db.ts): what crosses the thread (parameters, rows, errors,
 * transactions) must behave as it did with PGlite in the server's own thread.
 */

let root: string;
let db: Db;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-pglite-thread-'));
  db = await openPglite(join(root, 'data', 'pglite'));
  await db.exec(`
    CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, body bytea, meta jsonb, at timestamptz, tags text[], big int8);
  `);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await rm(root, { recursive: true, force: true });
});

it('takes the folder’s lock beside it and runs queries with their parameters', async () => {
  expect(db.kind).toBe('pglite');
  expect(existsSync(join(root, 'data', 'pglite.lock'))).toBe(true);
  expect(await db.query('SELECT $1::int + $2::int AS sum', [2, 3])).toEqual([{ sum: 5 }]);
});

it('keeps the types of values across the thread: bytes, JSON, dates, arrays, int8, null', async () => {
  const at = new Date('2026-11-26T08:00:00.000Z');
  const body = new Uint8Array([0, 1, 2, 254, 255]);
  await db.query('INSERT INTO things (id, name, body, meta, at, tags, big) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    1,
    'first',
    body,
    { nested: { list: [1, 'two'] } },
    at,
    ['a', 'b'],
    9007199254740993n,
  ]);
  const [row = {}] = await db.query<Record<string, unknown>>('SELECT * FROM things WHERE id = 1');
  expect(row.body).toBeInstanceOf(Uint8Array);
  expect([...(row.body as Uint8Array)]).toEqual([...body]);
  expect(row.meta).toEqual({ nested: { list: [1, 'two'] } });
  expect(row.at).toBeInstanceOf(Date);
  expect((row.at as Date).toISOString()).toBe(at.toISOString());
  expect(row.tags).toEqual(['a', 'b']);
  expect(String(row.big)).toBe('9007199254740993');
  expect(await db.query('SELECT NULL::text AS nothing')).toEqual([{ nothing: null }]);
});

it('gives back a failed query’s Postgres error with its fields, and goes on working', async () => {
  const err = await db.query('INSERT INTO things (id, name) VALUES (1, $1)', ['again']).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(/duplicate key/);
  expect(err).toMatchObject({ code: '23505', constraint: 'things_pkey' });
  const missing = await db.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
  expect(missing).toMatchObject({ code: '42P01' });
  expect(await db.query('SELECT count(*)::int AS n FROM things')).toEqual([{ n: 1 }]);
});

it('commits a transaction that resolves and rolls back one that throws, rethrowing its error', async () => {
  const value = await db.transaction(async (tx) => {
    await tx.query('INSERT INTO things (id, name) VALUES (2, $1)', ['kept']);
    return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM things'))[0]?.n;
  });
  expect(value).toBe(2);
  const thrown = new Error('changed my mind');
  await expect(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO things (id, name) VALUES (3, $1)', ['dropped']);
      throw thrown;
    }),
  ).rejects.toBe(thrown);
  expect(await db.query('SELECT id FROM things ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  // A failed statement inside aborts the transaction: nothing of it is kept.
  await expect(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO things (id, name) VALUES (4, $1)', ['lost']);
      await tx.query('INSERT INTO things (id, name) VALUES (1, $1)', ['duplicate']);
    }),
  ).rejects.toMatchObject({ code: '23505' });
  expect(await db.query('SELECT id FROM things ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
});

it('holds a query sent during a transaction until the transaction ends, as one thread did', async () => {
  const order: string[] = [];
  let outside: Promise<unknown> | undefined;
  await db.transaction(async (tx) => {
    await tx.query('UPDATE things SET name = $1 WHERE id = 2', ['inside']);
    outside = db.query('SELECT name FROM things WHERE id = 2').then((rows) => {
      order.push('outside');
      return rows;
    });
    await new Promise((r) => setTimeout(r, 50));
    order.push('commit');
  });
  expect(await outside).toEqual([{ name: 'inside' }]);
  expect(order).toEqual(['commit', 'outside']);
});

it('runs a script of several statements', async () => {
  await db.exec('CREATE TABLE extra (v int); INSERT INTO extra VALUES (7);');
  expect(await db.query('SELECT v FROM extra')).toEqual([{ v: 7 }]);
});

it('gives the lock back on close, and what was written is there on the next open', async () => {
  const dir = join(root, 'reopen', 'pglite');
  const first = await openPglite(dir);
  await first.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('written')");
  await first.close();
  expect(existsSync(`${dir}.lock`)).toBe(false);
  await expect(first.query('SELECT 1')).rejects.toThrow();
  const again = await openPglite(dir);
  try {
    expect(await again.query('SELECT v FROM kept')).toEqual([{ v: 'written' }]);
  } finally {
    await again.close();
  }
});

it('does not keep a process alive once its calls are answered (the admin CLI exits when done)', async () => {
  const script = `
    import { openPglite } from './sync-server/store/pglite.ts';
    const db = await openPglite(process.argv[1]);
    console.log(JSON.stringify(await db.query('SELECT 41 + 1 AS answer')));`;
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, join(root, 'cli')], {
      cwd: ROOT,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
  expect(out).toContain('[{"answer":42}]');
  expect(code).toBe(0);
}, 90_000);
