import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { PGliteOptions } from '@electric-sql/pglite';

const run = promisify(execFile);

/** The CommonJS entry of the installed PGlite and its version (the template depends on both). */
function pgliteInstall(): { entry: string; version: string } {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return { entry, version: pkg.version };
}

/**
 * Where the pristine data folder for this PGlite version and these options is
 * kept: next to the installed package (`node_modules/.cache/folio-pglite/…`),
 * so a reinstall or an upgrade of PGlite makes a new one.
 */
export function pgliteTemplateDir(options: PGliteOptions): string {
  const { entry, version } = pgliteInstall();
  const key = createHash('sha256')
    .update(JSON.stringify([version, options]))
    .digest('hex')
    .slice(0, 16);
  // entry = …/node_modules/@electric-sql/pglite/dist/index.cjs
  return join(dirname(entry), '..', '..', '..', '.cache', 'folio-pglite', `${version}-${key}`);
}

/**
 * Runs initdb for `dir` in a child process: initdb is PGlite's heaviest step
 * (a second Postgres instance plus a copy of its whole wasm heap, ~770 MiB
 * peak here), and memory a process has grown to is not given back, so doing
 * it in the server left the server ~300 MiB larger for good.
 */
async function initdbInChild(dir: string, options: PGliteOptions): Promise<void> {
  const { entry } = pgliteInstall();
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    '(async () => { const pg = new PGlite(process.argv[2], JSON.parse(process.argv[3])); await pg.waitReady; await pg.close(); })()' +
    '.catch((err) => { console.error(err); process.exit(1); });';
  await run(process.execPath, ['-e', script, entry, dir, JSON.stringify(options)], { env: process.env });
}

/** Builds the template folder if missing; another process building it at the same time is fine (one rename wins). */
export async function ensurePgliteTemplate(options: PGliteOptions): Promise<string> {
  const template = pgliteTemplateDir(options);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  await mkdir(dirname(template), { recursive: true });
  const building = `${template}.building-${process.pid}-${Date.now()}`;
  try {
    await initdbInChild(building, options);
    await rename(building, template).catch((err: NodeJS.ErrnoException) => {
      // Someone else finished first: theirs is as good as ours.
      if (!existsSync(join(template, 'PG_VERSION'))) throw err;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return template;
}

/** Whether `dir` is missing or an empty folder (a folder with anything else in it is left to PGlite). */
async function isNewDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * Gives a new data folder its initial database by copying the template
 * (building that first, once per install, when missing). The copy is made
 * beside `dataDir` and renamed into place, so a crash mid-copy never leaves a
 * half-made database that looks real. When the template cannot be kept (a
 * read-only node_modules), initdb runs in a child process straight into a
 * temporary folder instead — slower, but the server stays as small.
 */
export async function provisionDataDir(dataDir: string, options: PGliteOptions): Promise<void> {
  if (!(await isNewDir(dataDir))) return;
  const staging = `${dataDir}.new-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    let template: string | undefined;
    try {
      template = await ensurePgliteTemplate(options);
    } catch {
      template = undefined;
    }
    if (template) await cp(template, staging, { recursive: true });
    else await initdbInChild(staging, options);
    // rename(2) replaces an empty folder, so a pre-made empty dataDir is fine.
    await rename(staging, dataDir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
