import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { migrate } from './migrate';
import { pgliteDb } from './pglite-db';
import { ensurePgliteTemplate, pgliteTemplateDir } from './pglite-template';

/** The folder migrate() reads (same folder as migrate.ts, also once bundled). */
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * A digest of every file in `dir` (names and bytes), so that adding, removing,
 * renaming or editing any migration gives a new key. Every file counts, not
 * only the ones migrate() picks, so no change there can keep a stale image.
 */
export function migrationSetKey(dir: string = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) {
    hash.update(name).update('\0');
    hash.update(readFileSync(`${dir}/${name}`)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Where the migrated image for these options and this migration set is kept:
 * beside the template folder (whose name already holds PGlite's version and
 * the options), suffixed with the migrations' key.
 */
export function pgliteImagePath(options: PGliteOptions, migrationsDir: string = MIGRATIONS_DIR): string {
  return `${pgliteTemplateDir(options)}-migrated-${migrationSetKey(migrationsDir)}.tar`;
}

/**
 * Builds the image: a copy of the template folder opened on disk (no initdb
 * here: the template's was run once, in a child process), every migration
 * applied by migrate() itself (so its schema_migrations rows are in the image),
 * checkpointed, and dumped as a tarball. The folder is a temp one (a killed
 * build leaves nothing in the cache); the tarball is written beside its final
 * name and renamed into place, so a reader never sees half a file and two
 * processes building at once both end with a whole one.
 */
async function buildImage(path: string, options: PGliteOptions): Promise<Blob> {
  const template = await ensurePgliteTemplate(options);
  const staging = await mkdtemp(join(tmpdir(), 'folio-pglite-image-'));
  const partial = `${path}.building-${process.pid}-${Date.now()}`;
  try {
    await cp(template, staging, { recursive: true });
    const pg = new PGlite(staging, options);
    await pg.waitReady;
    let image: Blob;
    try {
      await migrate(pgliteDb(pg));
      // Writes the applied migrations into the data files, so an open of the image has no WAL to replay.
      await pg.query('CHECKPOINT');
      image = await pg.dumpDataDir('none');
    } finally {
      await pg.close();
    }
    try {
      await writeFile(partial, new Uint8Array(await image.arrayBuffer()));
      await rename(partial, path);
      await removeOtherImages(path, options);
    } catch {
      // Not kept on disk (e.g. a read-only cache): this process still uses it.
    }
    return image;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Deletes the images of earlier migration sets (~40 MB each), so editing migrations does not fill the cache. */
async function removeOtherImages(path: string, options: PGliteOptions): Promise<void> {
  const prefix = `${basename(pgliteTemplateDir(options))}-migrated-`;
  for (const name of await readdir(dirname(path)))
    if (name.startsWith(prefix) && name.endsWith('.tar') && name !== basename(path))
      await rm(join(dirname(path), name), { force: true });
}

async function readOrBuildImage(path: string, options: PGliteOptions): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(path)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  try {
    return await buildImage(path, options);
  } catch {
    return undefined;
  }
}

/** Per process: the image (or undefined when it cannot be had) for each path, read or built once. */
const images = new Map<string, Promise<Blob | undefined>>();

/**
 * The tarball an in-memory database starts from (PGlite's `loadDataDir`): a
 * database with every current migration applied, made once per PGlite
 * version, options and migration set, and cached under
 * node_modules/.cache/folio-pglite/. Starting from it skips initdb (~4 s and
 * ~900 MiB peak in the process) and the migrations. Undefined when it cannot
 * be built (e.g. no writable cache); the caller then runs initdb as before.
 */
export function migratedPgliteImage(options: PGliteOptions): Promise<Blob | undefined> {
  const path = pgliteImagePath(options);
  let image = images.get(path);
  if (!image) {
    image = readOrBuildImage(path, options);
    images.set(path, image);
  }
  return image;
}
