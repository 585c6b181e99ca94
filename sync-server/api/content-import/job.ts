import type { AppContext } from '../../context';
import { JobError, type JobKind } from '../../jobs/runner';
import { BatchError } from '../change-request-content/apply-error';
import { CONTENT_IMPORT_JOB } from '../../store/import-runs';
import { ImportError } from '../../import/types';
import type { ReadLimits } from './read-source';
import { writeImport } from './write';
import type { ImportSource, ImportTarget } from './schemas';

/** What an import run is given (the job's payload; also what the import-run API shows). */
export interface ImportPayload {
  organizationId: string;
  source: ImportSource;
  target: ImportTarget;
  site?: string;
  createdBy: string;
}

/** What a finished run keeps (the job's result). */
export interface ImportOutcome {
  revision: string | null;
  importedResources: number;
  totalResources: number;
  skippedResources: number;
  pages: { id: string; sourceURL?: string }[];
}

/** What a run reports while it reads its source (the job's progress). */
export interface ImportRunProgress {
  found: number;
  done: number;
  skipped: number;
}

/**
 * The import job: read the source (a site crawled breadth-first, uploaded files, an export
 * archive) into pages and files, then write them as one revision of the target. A page or image
 * that fails is skipped and counted; a source that cannot be read at all fails the run with its
 * code (FETCH_ERROR, FETCH_TIMEOUT, INVALID_SOURCE, NOTHING_IMPORTED).
 */
export function contentImportJob(
  ctx: AppContext,
  limits: Partial<ReadLimits> = {},
): JobKind<ImportPayload, ImportOutcome> {
  return {
    kind: CONTENT_IMPORT_JOB,
    // A run is started by a person waiting for it: one attempt, its failure reported as it is.
    maxAttempts: 1,
    timeoutMs: 15 * 60_000,
    async run({ job, signal, progress }) {
      const payload = job.payload;
      let last = 0;
      const report = async (p: ImportRunProgress) => {
        // Progress is a write: at most a few a second, whatever the pace of the crawl.
        const now = Date.now();
        if (now - last < 250) return;
        last = now;
        await progress({ ...p });
      };
      try {
        // Loaded on the first import: the DOM, Readability, turndown and the zip reader are not needed to start.
        const { readSource, READ_LIMITS } = await import('./read-source');
        const tree = await readSource(ctx, payload, job.id, signal, report, { ...READ_LIMITS, ...limits });
        signal.throwIfAborted();
        if (tree.pages.length === 0) throw new ImportError('NOTHING_IMPORTED', 'The source has no page to import');
        await progress({ found: tree.total, done: tree.total - tree.skipped, skipped: tree.skipped });
        const written = await writeImport(
          ctx,
          {
            organizationId: payload.organizationId,
            spaceId: payload.target.space,
            ...(payload.target.changeRequest ? { changeRequestId: payload.target.changeRequest } : {}),
            ...(payload.target.page ? { pageId: payload.target.page } : {}),
            userId: payload.createdBy,
          },
          tree,
        );
        return {
          revision: written.revision ?? null,
          importedResources: tree.pages.length + tree.files.length,
          totalResources: tree.total,
          skippedResources: tree.skipped,
          pages: tree.pages.map((p) => ({
            id: written.pages.get(p.ref)!,
            ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}),
          })),
        };
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof ImportError) throw new JobError(err.code, err.message, false);
        // The target changed under the run (its page deleted, a file refused): the run fails, saying why.
        if (err instanceof BatchError) throw new JobError('INVALID_TARGET', err.message, false);
        throw err;
      }
    },
  };
}
