import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { Db } from '../../sync-server/store/db';
import type { BenchOutcome } from './http-load';

/**
 * The embedded database's own footprint: for each variant, a fresh Node
 * process (so RSS is the database's alone, plus Node and tsx) opens PGlite on
 * a new folder and then again on that existing folder, runs the migrations
 * and a small query mix, and reports open / migrate / query times and RSS
 * after a GC. The in-memory variants (what test servers open) instead open
 * twice in one process, as a test worker does: the first open, then another.
 * Prints a table; writes test-artifacts/bench-pglite-footprint.json.
 */

export const name = 'pglite-footprint';

const execFileAsync = promisify(execFile);
const SELF = fileURLToPath(import.meta.url);
const CHILD_FLAG = '--pglite-footprint-child';

interface Variant {
  name: string;
  meaning: string;
}

const VARIANTS: Variant[] = [
  { name: 'baseline', meaning: 'new PGlite(dir) with no options (before tuning)' },
  { name: 'settings', meaning: 'new PGlite(dir, pgliteOptions()): tuned GUCs, initdb still in-process' },
  {
    name: 'chosen',
    meaning: 'openPglite(dir): tuned GUCs + Liftoff-only wasm + a new folder copied from the template',
  },
  { name: 'mem-initdb', meaning: 'in memory, as before the image: pgliteOptions() + Liftoff, initdb in-process' },
  { name: 'mem-fresh', meaning: 'in memory from a tarball of a fresh initdb (loadDataDir); every migration runs' },
  {
    name: 'mem-chosen',
    meaning: 'openPglite(undefined): in memory from the image with every migration applied (pglite-image.ts)',
  },
];

type Kind = 'new' | 'existing' | 'memory';

interface Figures {
  variant: string;
  dir: Kind;
  openMs: number;
  migrateMs: number;
  /** In-memory variants: a second open + migrate in the same process (a worker's next test server). */
  againOpenMs?: number;
  againMigrateMs?: number;
  queryMs: number;
  computeMs: number;
  rssBeforeMiB: number;
  rssMiB: number;
  vmRssMiB: number;
  vmHwmMiB: number;
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

function procStatusMiB(field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** Opens the variant's database (for mem-fresh, `dir` is the fresh tarball's path). */
async function openVariant(variant: string, dir: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { openPglite, pgliteOptions } = await import('../../sync-server/store/pglite');
  const { pgliteDb } = await import('../../sync-server/store/pglite-db');
  if (variant === 'chosen') return openPglite(dir);
  if (variant === 'mem-chosen') return openPglite(undefined);
  // The other in-memory variants get the Liftoff-only flag openPglite sets, so only the start differs.
  if (variant.startsWith('mem-')) setFlagsFromString('--liftoff-only');
  const options =
    variant === 'baseline'
      ? {}
      : variant === 'mem-fresh'
        ? { ...pgliteOptions(), loadDataDir: new Blob([await readFile(dir)]) }
        : pgliteOptions();
  const pg = variant.startsWith('mem-') ? new PGlite(options) : new PGlite(dir, options);
  await pg.waitReady;
  return pgliteDb(pg);
}

/** Child side: one open + migrate + query mix, figures as one JSON line on stdout. */
async function child(variant: string, dir: string, kind: Kind): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the child with --expose-gc');
  const { migrate } = await import('../../sync-server/store/migrate');
  gc();
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let db = await openVariant(variant, dir);
  const t1 = performance.now();
  await migrate(db);
  const t2 = performance.now();
  let again: Pick<Figures, 'againOpenMs' | 'againMigrateMs'> = {};
  if (kind === 'memory') {
    await db.close();
    const a0 = performance.now();
    db = await openVariant(variant, dir);
    const a1 = performance.now();
    await migrate(db);
    again = { againOpenMs: Math.round(a1 - a0), againMigrateMs: Math.round(performance.now() - a1) };
  }
  const t2b = performance.now();
  // A small mix so the figures include a warmed-up query path: writes in transactions, point reads, a scan.
  await db.exec('CREATE TABLE IF NOT EXISTS bench_footprint (id int PRIMARY KEY, body text)');
  for (let i = 0; i < 200; i++)
    await db.transaction((tx) =>
      tx.query('INSERT INTO bench_footprint VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET body = $2', [
        i,
        'x'.repeat(500),
      ]),
    );
  for (let i = 0; i < 1000; i++) await db.query('SELECT body FROM bench_footprint WHERE id = $1', [i % 200]);
  await db.query('SELECT count(*) FROM bench_footprint WHERE body LIKE $1', ['%y%']);
  const t3 = performance.now();
  // Work inside Postgres itself (wasm-bound, not protocol-bound): 200k md5s sorted.
  await db.query('SELECT id FROM generate_series(1, 200000) g(id) ORDER BY md5(id::text) LIMIT 1');
  const t4 = performance.now();
  gc();
  await new Promise((r) => setTimeout(r, 500));
  gc();
  const figures: Figures = {
    variant,
    dir: kind,
    openMs: Math.round(t1 - t0),
    migrateMs: Math.round(t2 - t1),
    ...again,
    queryMs: Math.round(t3 - t2b),
    computeMs: Math.round(t4 - t3),
    rssBeforeMiB: mib(rssBefore),
    rssMiB: mib(process.memoryUsage().rss),
    vmRssMiB: procStatusMiB('VmRSS'),
    vmHwmMiB: procStatusMiB('VmHWM'),
  };
  await db.close();
  console.log(JSON.stringify(figures));
}

async function measure(v: Variant, dir: string, kind: Kind): Promise<Figures> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', SELF, CHILD_FLAG, v.name, dir, kind],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Figures;
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const root = await mkdtemp(join(tmpdir(), 'folio-pglite-footprint-'));
  const results: Figures[] = [];
  try {
    // Build the template once first, so "chosen, new" shows a provisioned start
    // (as on any start after install), not the one-off template build.
    const { ensurePgliteTemplate } = await import('../../sync-server/store/pglite-template');
    const { pgliteOptions } = await import('../../sync-server/store/pglite');
    const { migratedPgliteImage } = await import('../../sync-server/store/pglite-image');
    const tb = performance.now();
    await ensurePgliteTemplate(pgliteOptions());
    console.log(`template ready in ${Math.round(performance.now() - tb)} ms (0 work when already built)`);
    const freshTar = join(root, 'fresh.tar');
    await writeFile(freshTar, await dumpFreshInitdb(join(root, 'fresh')));
    const ib = performance.now();
    await migratedPgliteImage(pgliteOptions());
    console.log(`migrated image ready in ${Math.round(performance.now() - ib)} ms (0 work when already built)`);
    // BENCH_PGLITE_VARIANTS=mem- runs only the variants whose name contains it.
    const only = process.env.BENCH_PGLITE_VARIANTS;
    for (const v of VARIANTS.filter((x) => !only || x.name.includes(only))) {
      if (v.name.startsWith('mem-')) {
        try {
          results.push(await measure(v, freshTar, 'memory'));
        } catch (err) {
          problems.push(`${v.name}: ${(err as Error).message}`);
        }
        continue;
      }
      const dir = join(root, v.name, 'pglite');
      await mkdir(join(root, v.name));
      for (const kind of ['new', 'existing'] as const) {
        try {
          results.push(await measure(v, dir, kind));
        } catch (err) {
          problems.push(`${v.name} ${kind}: ${(err as Error).message}`);
        }
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log(
    'variant    dir       open ms  migrate ms  again ms  query ms  compute ms  rss before  rss MiB  VmRSS  VmHWM',
  );
  for (const f of results)
    console.log(
      `${f.variant.padEnd(10)} ${f.dir.padEnd(9)} ${String(f.openMs).padStart(7)} ${String(f.migrateMs).padStart(11)} ` +
        `${(f.againOpenMs === undefined ? '-' : `${f.againOpenMs}+${f.againMigrateMs}`).padStart(9)} ` +
        `${String(f.queryMs).padStart(9)} ${String(f.computeMs).padStart(11)} ${String(f.rssBeforeMiB).padStart(11)} ${String(f.rssMiB).padStart(8)} ` +
        `${String(f.vmRssMiB).padStart(6)} ${String(f.vmHwmMiB).padStart(6)}`,
    );
  for (const v of VARIANTS) console.log(`  ${v.name}: ${v.meaning}`);
  await mkdir('test-artifacts', { recursive: true });
  await writeFile(
    'test-artifacts/bench-pglite-footprint.json',
    JSON.stringify({ node: process.version, variants: VARIANTS, results }, null, 2),
  );
  return { ok: problems.length === 0, problems };
}

/**
 * A tarball of a fresh initdb (option "a": migrations would then run per
 * open), dumped from a copy of the template folder.
 */
async function dumpFreshInitdb(dir: string): Promise<Buffer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteOptions } = await import('../../sync-server/store/pglite');
  const { ensurePgliteTemplate } = await import('../../sync-server/store/pglite-template');
  await cp(await ensurePgliteTemplate(pgliteOptions()), dir, { recursive: true });
  const pg = new PGlite(dir, pgliteOptions());
  try {
    await pg.waitReady;
    await pg.query('CHECKPOINT');
    return Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pg.close();
  }
}

if (process.argv[2] === CHILD_FLAG) {
  child(process.argv[3]!, process.argv[4]!, process.argv[5] as Kind).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
