import type { ImportRun } from './import-api';

/**
 * What the import dialog says of a run, from its counts: "3 of 7 pages" and a bar that fills while
 * it runs (read pages and files against those found; the server reads pages first, then their
 * images), the outcome once it has ended. Pure, so its wording is tested without a browser.
 */

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** How far a running run is, or undefined when it has not counted anything yet (a busy bar then). */
export function runFraction(run: ImportRun): { value: number; max: number } | undefined {
  if (run.status !== 'in-progress' || !run.totalPages) return undefined;
  const read = (run.importedPages ?? 0) + (run.skippedPages ?? 0) + (run.importedFiles ?? 0) + (run.skippedFiles ?? 0);
  const max = run.totalPages + (run.totalFiles ?? 0);
  return { value: Math.min(read, max), max };
}

/** The line under the bar while a run runs. */
export function runningText(run: ImportRun): string {
  if (run.status === 'pending') return 'Waiting to start…';
  if (!run.totalPages) return 'Importing…';
  const read = (run.importedPages ?? 0) + (run.skippedPages ?? 0);
  const skipped = run.skippedPages ? ` (${run.skippedPages} skipped)` : '';
  const files = run.totalFiles
    ? `, ${(run.importedFiles ?? 0) + (run.skippedFiles ?? 0)} of ${plural(run.totalFiles, 'file')}`
    : '';
  return `Importing… ${read} of ${plural(run.totalPages, 'page')}${skipped}${files}`;
}

/** The outcome of a run that has ended. */
export function resultText(run: ImportRun): string {
  switch (run.status) {
    case 'completed': {
      // A server without counts: its pages list, groups ("folder") left out.
      const pages = run.importedPages ?? run.pages.filter((p) => p.type !== 'folder').length;
      const skipped = (run.skippedPages ?? 0) + (run.skippedFiles ?? 0);
      return `Import finished: ${plural(pages, 'page')} imported${skipped ? `, ${skipped} skipped` : ''}.`;
    }
    case 'cancelled':
      return 'Import cancelled. Pages already written stay in the space.';
    case 'failed':
      return `Import failed: ${run.reason ?? 'the server gave no reason.'}`;
    default:
      return '';
  }
}
