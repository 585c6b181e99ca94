import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { Db } from './db';
import { BYTEA_OID, byteaToHex, hexToBytea } from './pglite-bytea';
import { pgliteDb } from './pglite-db';
import { migratedPgliteImage } from './pglite-image';
import { compiledPgliteWasm } from './pglite-wasm';
import { lockEmbeddedDatabase } from './pglite-lock';
import { provisionDataDir } from './pglite-template';

/**
 * Postgres settings for a docs server's embedded database, passed as `-c`
 * flags on every start (and to initdb, so a new folder's postgresql.conf
 * records them too). Measured with `npm run bench -- pglite-footprint`; only
 * settings that change the footprint are here — work_mem, temp_buffers and
 * maintenance_work_mem are allocated per query on demand, so their defaults
 * cost nothing at idle.
 */
export const PGLITE_SETTINGS: readonly string[] = [
  // The buffer pool is allocated and touched in full at start (PGlite runs
  // Postgres single-user inside the wasm heap): the default 128MB was ~115 MiB
  // of the idle RSS. Reads that miss it are served by the OS page cache (the
  // files live on disk via Node's fs), so a small pool costs a syscall per
  // 8 kB page, not a disk read. wal_buffers follows it (-1 = 1/32 of it).
  'shared_buffers=8MB',
  // WAL kept on disk between checkpoints: the default 80MB..1GB is sized for
  // write-heavy servers; a docs server's writes are small, and a checkpoint
  // every 128MB of WAL bounds the folder's size.
  'min_wal_size=32MB',
  'max_wal_size=128MB',
  // Shared memory is sized for max_connections backends (their slots, lock
  // table, snapshots) and touched at start; PGlite runs one backend, so the
  // default 100 held ~4-5 MiB of idle RSS for nothing. The lock table
  // (max_locks_per_transaction x this) still has room for 640 locks, far more
  // than the largest migration takes in one transaction.
  'max_connections=10',
];

const asFlags = (settings: readonly string[]) => settings.flatMap((s) => ['-c', s]);

/** The PGlite constructor options Folio opens every database with (also used by the footprint benchmark). */
export function pgliteOptions(): PGliteOptions {
  return {
    // PGlite's own defaults (single-user, fsync off — see durability below) plus ours.
    startParams: [...PGlite.defaultStartParams, ...asFlags(PGLITE_SETTINGS)],
    initDbStartParams: asFlags(PGLITE_SETTINGS),
    // bytea through Node's native hex codec (pglite-bytea.ts): PGlite's byte-by-byte one stalled the
    // event loop ~2 s for every 8 MB document update or revision written and read back.
    serializers: { [BYTEA_OID]: byteaToHex },
    parsers: { [BYTEA_OID]: hexToBytea },
    // Not set, on purpose:
    // - initialMemory: the wasm module declares a 128 MiB minimum (lower is a
    //   LinkError), and untouched wasm pages are not resident anyway.
    // - relaxedDurability: a no-op with the on-disk (Node fs) backend, whose
    //   sync step does nothing; see durability.
    // Durability: PGlite starts Postgres with fsync=off and its Node fs layer
    // has no fsync, but every write is a synchronous write(2) to the data
    // files/WAL before the query resolves. So a committed (acknowledged)
    // transaction is in the kernel before we broadcast it and survives the
    // process crashing; like before this tuning, it does not survive a power
    // loss of the machine (PostgreSQL mode is the choice for that).
  };
}

/**
 * Opens the embedded PGlite database. `dataDir` undefined keeps it in memory
 * (tests); otherwise it lives in that folder and survives restarts, and one
 * process at a time holds it (EmbeddedDatabaseBusyError for the next). A new
 * folder is provisioned from a ready-made template (pglite-template.ts)
 * instead of running initdb in this process, which took ~4 s and left this
 * process ~300 MiB larger for good. An in-memory database starts from a
 * ready-made image with every migration applied (pglite-image.ts), so neither
 * initdb nor the migrations run per open; migrate() still runs after and finds
 * them recorded.
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const unlock = dataDir ? await lockEmbeddedDatabase(dataDir) : async () => undefined;
  let pg: PGlite;
  try {
    if (dataDir) {
      await provisionDataDir(dataDir, pgliteOptions());
      pg = new PGlite(dataDir, { ...pgliteOptions(), pgliteWasmModule: await compiledPgliteWasm() });
    } else {
      // Compiled first: the image build below opens a PGlite of its own, and compiledPgliteWasm() is
      // what sets the Liftoff-only flag its compile must see too.
      const pgliteWasmModule = await compiledPgliteWasm();
      const image = await migratedPgliteImage(pgliteOptions());
      const options = { ...pgliteOptions(), pgliteWasmModule };
      pg = new PGlite(image ? { ...options, loadDataDir: image } : options);
    }
    await pg.waitReady;
  } catch (err) {
    await unlock();
    throw err;
  }
  return pgliteDb(pg, unlock);
}
