import { expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import type { Db } from '../../sync-server/store/db';
import { openPglite } from '../../sync-server/store/pglite';
import { whenReady } from '../../sync-server/store/ready-db';
import { startServer } from '../../sync-server/server';

/**
 * startServer builds its services and routes while the database opens and
 * migrates (whenReady): their queries wait for the migrations, and a database
 * that fails to open fails the start with its own error.
 */

it('holds calls made before the database is ready, then runs them after what readiness waited for', async () => {
  const db = await openPglite(undefined);
  let open!: () => void;
  const ready = new Promise<void>((resolve) => (open = resolve)).then(async () => {
    // What startServer does here: the migrations, before anyone else's query.
    await db.exec('CREATE TABLE early (v int); INSERT INTO early VALUES (1)');
    return db;
  });
  const held = whenReady('pglite', ready);
  const queued = held.query('SELECT v FROM early');
  const inTransaction = held.transaction((tx) => tx.query('INSERT INTO early VALUES (2)'));
  await new Promise((r) => setTimeout(r, 20));
  open();
  expect(await queued).toEqual([{ v: 1 }]);
  await inTransaction;
  // Once ready, calls go straight through.
  expect(await held.query('SELECT count(*)::int AS n FROM early')).toEqual([{ n: 2 }]);
  expect((await held.withLock('k', async () => 'ran')).acquired).toBe(true);
  await held.close();
  await expect(db.query('SELECT 1')).rejects.toThrow();
});

it('fails held and later calls with the open’s error, and closes without complaint', async () => {
  const refused = new Error('the embedded database in /x is in use by another Folio process (pid 1)');
  const ready = Promise.reject<Db>(refused);
  const held = whenReady('pglite', ready);
  await expect(held.query('SELECT 1')).rejects.toBe(refused);
  await expect(held.exec('SELECT 1')).rejects.toBe(refused);
  await expect(held.close()).resolves.toBeUndefined();
});

it('fails the start with the database’s own error, which comes after the routes are built', async () => {
  const refused = new Error('the embedded database is in use by another Folio process (pid 1)');
  const config = loadConfig([], { FOLIO_PORT: '0', FOLIO_LOG_LEVEL: 'silent', FOLIO_ADMIN_TOKEN: 'x'.repeat(32) });
  await expect(startServer(config, { database: Promise.reject<Db>(refused) })).rejects.toBe(refused);
});
