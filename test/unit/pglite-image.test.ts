import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../../sync-server/store/migrate';
import { openPglite, pgliteOptions } from '../../sync-server/store/pglite';
import { migrationSetKey, pgliteImagePath } from '../../sync-server/store/pglite-image';

/**
 * An in-memory database starts from the cached image with every migration
 * applied: migrate() finds nothing left to do, the database is writable with
 * the tuned settings, two opens share nothing, and any change to the
 * migration files gives the image a new key (so a stale image is never used).
 */

const MIGRATIONS = fileURLToPath(new URL('../../sync-server/store/migrations/', import.meta.url));
const migrationFiles = readdirSync(MIGRATIONS)
  .filter((f) => /^\d{4}-.*\.sql$/.test(f))
  .sort();

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-pglite-image-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('opens in memory with every migration applied, writable, with the tuned settings', async () => {
  const db = await openPglite(undefined);
  try {
    expect(existsSync(pgliteImagePath(pgliteOptions()))).toBe(true);
    expect(await migrate(db)).toEqual([]);
    const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((r) => r.name)).toEqual(migrationFiles);
    expect(await db.query('SELECT current_setting($1) AS v', ['shared_buffers'])).toEqual([{ v: '8MB' }]);
    // A table the migrations made takes a write.
    await db.transaction((tx) =>
      tx.query("INSERT INTO organizations (id, title) VALUES ('org-image-test', 'Image test')"),
    );
    expect(await db.query("SELECT title FROM organizations WHERE id = 'org-image-test'")).toEqual([
      { title: 'Image test' },
    ]);
  } finally {
    await db.close();
  }
});

it('gives each open its own database', async () => {
  const a = await openPglite(undefined);
  const b = await openPglite(undefined);
  try {
    await a.exec('CREATE TABLE only_in_a (v text)');
    await a.query("INSERT INTO organizations (id, title) VALUES ('org-a', 'A')");
    expect(await a.query("SELECT id FROM organizations WHERE id = 'org-a'")).toEqual([{ id: 'org-a' }]);
    expect(await b.query("SELECT id FROM organizations WHERE id = 'org-a'")).toEqual([]);
    expect(await b.query("SELECT to_regclass('only_in_a') AS t")).toEqual([{ t: null }]);
  } finally {
    await a.close();
    await b.close();
  }
  // Closing one never disturbs a later open.
  const c = await openPglite(undefined);
  try {
    expect(await c.query("SELECT id FROM organizations WHERE id = 'org-a'")).toEqual([]);
  } finally {
    await c.close();
  }
});

it('keys the image by the migration files, so any change to them makes a new image', async () => {
  const copy = join(root, 'migrations');
  await cp(MIGRATIONS, copy, { recursive: true });
  const key = migrationSetKey(copy);
  expect(key).toBe(migrationSetKey());
  expect(pgliteImagePath(pgliteOptions(), copy)).toBe(pgliteImagePath(pgliteOptions()));

  const keys = new Set([key]);
  const last = join(copy, migrationFiles.at(-1)!);
  const original = await readFile(last, 'utf8');
  // An edit of one statement, even a single character.
  await writeFile(last, original.replace(/;\s*$/, ' ;\n'));
  keys.add(migrationSetKey(copy));
  await writeFile(last, original);
  expect(migrationSetKey(copy)).toBe(key);
  // A new migration.
  await writeFile(join(copy, '9999-later.sql'), 'CREATE TABLE later (id text);\n');
  keys.add(migrationSetKey(copy));
  await rm(join(copy, '9999-later.sql'));
  // A renamed one (it would run again under its new name).
  await rename(last, join(copy, `9998-${migrationFiles.at(-1)!.slice(5)}`));
  keys.add(migrationSetKey(copy));
  expect(keys.size).toBe(4);
  expect(pgliteImagePath(pgliteOptions(), copy)).not.toBe(pgliteImagePath(pgliteOptions()));
});
