import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';
import { folio } from '../helpers/cli-process';

/**
 * PGlite admits one process at a time and has no lock of its own: the admin
 * CLI run beside a server on the same data folder used to report success and
 * lose its writes. Now the second process is refused with a clear message,
 * and a lock left by a dead process is taken over.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const serverConfig = () =>
  loadConfig([], {
    FOLIO_DATA_DIR: dir,
    FOLIO_PORT: '0',
    FOLIO_LOG_LEVEL: 'silent',
    FOLIO_ADMIN_TOKEN: 'x'.repeat(32),
  });

it('refuses the CLI while a server holds the embedded database, and lets it in once the server stops', async () => {
  const server = await startServer(serverConfig());
  try {
    const refused = await folio(dir, 'user', 'add', '--name', 'Lost Writes', '--email', 'lost@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by another Folio process \(pid \d+\)/);
    expect(refused.stderr).toMatch(/stop the server first/);
  } finally {
    await server.close();
  }
  const added = await folio(dir, 'user', 'add', '--name', 'Kept Writes', '--email', 'kept@example.com');
  expect(added.code, added.stderr).toBe(0);
  const list = await folio(dir, 'user', 'list');
  expect(list.stdout).toContain('kept@example.com');
  expect(list.stdout).not.toContain('lost@example.com');
}, 120_000);

it('takes over a lock left by a process that died', async () => {
  // The pid of a process that has exited: the lock it "left" is stale.
  const dead = spawn(process.execPath, ['-e', '']);
  const pid = dead.pid!;
  await new Promise((resolve) => dead.on('close', resolve));
  await writeFile(join(dir, 'pglite.lock'), `${pid}\n`);
  const list = await folio(dir, 'user', 'list');
  expect(list.code, list.stderr).toBe(0);
  // The CLI released the lock when it closed the database.
  await expect(readFile(join(dir, 'pglite.lock'), 'utf8')).rejects.toThrow();
}, 120_000);

it('takes over a lock whose pid now names another process (a restarted container reuses pids)', async () => {
  // A live process, but not the one that wrote the lock: its start time differs from the one recorded.
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  try {
    await writeFile(join(dir, 'pglite.lock'), `${other.pid}\nstart=1\n`);
    const list = await folio(dir, 'user', 'list');
    expect(list.code, list.stderr).toBe(0);
    // The same live pid without a start time (a lock of an earlier version) still refuses: it may be the owner.
    await writeFile(join(dir, 'pglite.lock'), `${other.pid}\n`);
    const refused = await folio(dir, 'user', 'list');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`pid ${other.pid}`));
  } finally {
    other.kill('SIGKILL');
    await rm(join(dir, 'pglite.lock'), { force: true });
  }
}, 120_000);
