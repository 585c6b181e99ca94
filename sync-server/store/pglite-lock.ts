import { existsSync, readFileSync } from 'node:fs';
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

/**
 * The state and start time of a process from Linux's /proc (undefined where
 * there is no /proc, or no such process). The start time (clock ticks since
 * boot, field 22 of `stat`) tells a process from a later one given the same
 * pid, which containers do all the time: a restarted container's server gets
 * the pid its predecessor wrote in the lock.
 */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ')': fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's owner still runs: alive, not a zombie (a process killed
 * with -9 stays one until its parent reaps it, and in a container without an
 * init nobody may: it holds no files and writes nothing), and the process
 * that wrote the lock rather than a later one with its pid. Without /proc,
 * signal 0 answers (EPERM means it exists under another user).
 */
function ownerRuns(pid: number, startTime: string | undefined): boolean {
  const stat = procStat(pid);
  if (stat) return stat.state !== 'Z' && stat.state !== 'X' && (!startTime || stat.startTime === startTime);
  if (existsSync('/proc/self/stat')) return false; // /proc exists but has no such process: it is gone.
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
 * never saw them) wrote next. A lock left by a process that died (or is a
 * zombie, or whose pid now names another process) is taken over. Resolves to
 * the release function.
 */
export async function lockEmbeddedDatabase(dataDir: string): Promise<() => Promise<void>> {
  const path = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx', 0o600);
      // The pid, and where /proc has it the process's start time (so a later process with this pid is not us).
      const startTime = procStat(process.pid)?.startTime;
      await file.writeFile(`${process.pid}\n${startTime ? `start=${startTime}\n` : ''}`);
      await file.close();
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const [pidLine = '', startLine = ''] = (await readFile(path, 'utf8').catch(() => '')).split('\n');
      const pid = Number(pidLine.trim());
      const startTime = /^start=(\d+)$/.exec(startLine.trim())?.[1];
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && ownerRuns(pid, startTime))
        throw new EmbeddedDatabaseBusyError(dataDir, pid);
      // Stale (its owner died, is a zombie, or the pid is another process's now) or unreadable: take it over.
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not take the lock of the embedded database in ${dataDir}`);
}
