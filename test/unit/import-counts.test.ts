import { describe, expect, it } from 'vitest';
import type { ImportRun } from '../../renderer/src/import/import-api';
import { resultText, runFraction, runningText } from '../../renderer/src/import/import-counts';

/** What the import dialog says of a run's counts (renderer/src/import/import-counts.ts). */
const run = (fields: Partial<ImportRun>): ImportRun => ({ id: 'r', status: 'in-progress', pages: [], ...fields });

describe('the import dialog’s counts', () => {
  it('says "x of y pages" with a determinate bar once the run has counted, a busy one before', () => {
    expect(runningText(run({ status: 'pending' }))).toBe('Waiting to start…');
    expect(runningText(run({}))).toBe('Importing…');
    expect(runFraction(run({}))).toBeUndefined();
    const reading = run({ totalPages: 7, importedPages: 2, skippedPages: 1, totalFiles: 0 });
    expect(runningText(reading)).toBe('Importing… 3 of 7 pages (1 skipped)');
    expect(runFraction(reading)).toEqual({ value: 3, max: 7 });
    const images = run({ totalPages: 1, importedPages: 1, skippedPages: 0, totalFiles: 4, importedFiles: 1 });
    expect(runningText(images)).toBe('Importing… 1 of 1 page, 1 of 4 files');
    expect(runFraction(images)).toEqual({ value: 2, max: 5 });
  });

  it('says the outcome, with what was skipped, and copes with a server without counts', () => {
    const done = run({ status: 'completed', importedPages: 6, skippedPages: 1, skippedFiles: 1 });
    expect(resultText(done)).toBe('Import finished: 6 pages imported, 2 skipped.');
    const older = run({
      status: 'completed',
      pages: [
        { id: 'a', type: 'page', status: 'complete' },
        { id: 'g', type: 'folder', status: 'complete' },
      ],
    });
    expect(resultText(older)).toBe('Import finished: 1 page imported.');
    expect(resultText(run({ status: 'failed', reason: 'FETCH_ERROR: down' }))).toBe('Import failed: FETCH_ERROR: down');
  });
});
