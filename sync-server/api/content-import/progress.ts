import type { ImportProgress, ResourceCounts } from '../../import/types';

/**
 * A run's progress as saved on its job: at most one write every `everyMs` whatever the pace of
 * the crawl (each is a database write), yet never stale for longer than that: a report that comes
 * too soon is kept and written when the interval is over, so a reader sees the latest counts even
 * when the crawl then waits a minute for its next page. Writes go one after another (in order).
 */
export class ProgressWriter {
  private last = 0;
  private pending: ImportProgress | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly save: (p: ImportProgress) => Promise<void>,
    private readonly onLateError: (err: unknown) => void,
    private readonly everyMs = 250,
  ) {}

  /** Saves `p` now when the interval allows, else once it is over (a newer report replaces it). */
  async report(p: ImportProgress): Promise<void> {
    const wait = this.last + this.everyMs - Date.now();
    if (wait > 0) {
      this.pending = p;
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        // A failed late write is logged: nobody awaits it, and the next write says the same, newer.
        this.write().catch(this.onLateError);
      }, wait);
      this.timer.unref();
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = p;
    await this.write();
  }

  /** Writes `p` after any write under way, dropping a late one not started (the run's final counts). */
  async final(p: ImportProgress): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = p;
    await this.write();
  }

  /** Drops a late write not started yet (the run ended; its job row is no longer running). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private write(): Promise<void> {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return this.chain;
    this.last = Date.now();
    const run = this.chain.then(() => this.save(p));
    this.chain = run.catch(() => undefined);
    return run;
  }
}

const isCounts = (v: unknown): v is ResourceCounts =>
  typeof v === 'object' &&
  v !== null &&
  ['total', 'done', 'skipped'].every((k) => Number.isInteger((v as Record<string, unknown>)[k]));

/** A job's saved progress, when it has the shape this version saves (a run of an older version had none). */
export function progressOf(value: unknown): ImportProgress | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { pages, files } = value as Record<string, unknown>;
  return isCounts(pages) && isCounts(files) ? { pages, files } : undefined;
}
