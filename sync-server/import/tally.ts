import type { ImportedFile, ImportedPage, ImportProgress, ImportTree, SkipCode, SkippedResource } from './types';

/** Skipped resources a run lists at most: a site of thousands of broken links must not make a huge job row. */
export const MAX_SKIPPED_LISTED = 50;

const zero = () => ({ total: 0, done: 0, skipped: 0 });

/**
 * The counts of one run and the list of what it left out, kept as its sources are read. Each
 * resource is counted once as found (`total`), then as `done` or as `skipped` with its reason,
 * so a finished run's counts add up: total = done + skipped, for pages and for files.
 */
export class ImportTally {
  readonly counts: ImportProgress = { pages: zero(), files: zero() };
  private readonly skippedList: SkippedResource[] = [];
  /** Found but never read (past a limit): in `found`, not in the counts. */
  private unread = 0;

  found(kind: keyof ImportProgress, n = 1): void {
    this.counts[kind].total += n;
  }

  /** Sets what a crawl expects to read in all (it learns of pages as it goes; see website.ts). */
  expect(kind: keyof ImportProgress, total: number): void {
    this.counts[kind].total = total;
  }

  done(kind: keyof ImportProgress): void {
    this.counts[kind].done++;
  }

  skip(kind: keyof ImportProgress, source: string, code: SkipCode, message: string): void {
    this.counts[kind].skipped++;
    this.note(source, code, message);
  }

  /** `n` resources found past a limit, never read: listed once, counted among what was found only. */
  unreadPast(n: number, source: string, code: SkipCode, message: string): void {
    if (n <= 0) return;
    this.unread += n;
    this.note(source, code, message);
  }

  /** A copy of the counts as they are now (what a progress write saves). */
  snapshot(): ImportProgress {
    return { pages: { ...this.counts.pages }, files: { ...this.counts.files } };
  }

  tree(pages: ImportedPage[], files: ImportedFile[]): ImportTree {
    const { pages: p, files: f } = this.counts;
    return {
      pages,
      files,
      counts: this.snapshot(),
      found: p.total + f.total + this.unread,
      skipped: [...this.skippedList],
    };
  }

  private note(source: string, code: SkipCode, message: string): void {
    if (this.skippedList.length < MAX_SKIPPED_LISTED) this.skippedList.push({ source, code, message });
  }
}

/** "12.3 MiB": a size as people read it, in messages. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
}
