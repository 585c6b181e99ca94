import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite } from '../../sync-server/store/pglite';

/**
 * A new data folder gets its database from the template (copied, then renamed
 * into place) instead of initdb in the server process; the tuned settings
 * apply, and what is written survives a reopen.
 */

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-pglite-provision-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('provisions a missing folder, runs with the tuned settings and keeps writes across a reopen', async () => {
  const dir = join(root, 'missing', 'pglite');
  await mkdir(join(root, 'missing'));
  const db = await openPglite(dir);
  try {
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    expect(await db.query('SELECT current_setting($1) AS v', ['shared_buffers'])).toEqual([{ v: '8MB' }]);
    await db.exec('CREATE TABLE kept (v text)');
    await db.transaction((tx) => tx.query('INSERT INTO kept VALUES ($1)', ['written']));
  } finally {
    await db.close();
  }
  // No staging folder is left beside it.
  expect((await readdir(join(root, 'missing'))).sort()).toEqual(['pglite']);
  const again = await openPglite(dir);
  try {
    expect(await again.query('SELECT v FROM kept')).toEqual([{ v: 'written' }]);
  } finally {
    await again.close();
  }
});

it('provisions an empty folder made beforehand', async () => {
  const dir = join(root, 'empty');
  await mkdir(dir);
  const db = await openPglite(dir);
  try {
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
  } finally {
    await db.close();
  }
});
