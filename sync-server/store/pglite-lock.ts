import { open, readFile, rm } from 'node:fs/promises';

/** Another live process holds the embedded database. */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another Folio process (pid ${pid}). ` +
        'PGlite allows one process at a time, and writes made beside it would be lost: stop the server first ' +
        '(or run every process on PostgreSQL with FOLIO_DATABASE_URL).',
    );
    this.name = 'EmbeddedDatabaseBusyError';
  }
}

/** Whether a process with this id is alive (signal 0 only checks; EPERM means it exists under another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's lock file (`<dataDir>.lock`, holding the
 * owner's pid) before PGlite opens the folder. PGlite has no lock of its own:
 * without this, the admin CLI run beside a running server opened the same
 * files, reported success, and its writes were lost when the server (which
 * never saw them) wrote next. A lock left by a process that died is taken
 * over. Resolves to the release function.
 */
export async function lockEmbeddedDatabase(dataDir: string): Promise<() => Promise<void>> {
  const path = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx', 0o600);
      await file.writeFile(`${process.pid}\n`);
      await file.close();
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid))
        throw new EmbeddedDatabaseBusyError(dataDir, pid);
      // Stale (its owner died) or unreadable: remove it and try again.
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not take the lock of the embedded database in ${dataDir}`);
}
