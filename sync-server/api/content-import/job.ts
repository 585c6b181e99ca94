import type { AppContext } from '../../context';
import { JobError, type JobKind } from '../../jobs/runner';
import { BatchError } from '../change-request-content/apply-error';
import { CONTENT_IMPORT_JOB } from '../../store/import-runs';
import { ImportError, type ImportProgress, type ImportTree, type SkippedResource } from '../../import/types';
import { ProgressWriter } from './progress';
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
  /** The run's final counts (absent from runs of versions that did not keep them). */
  counts?: ImportProgress;
  /** What was left out and why (the first few; `counts` has them all). */
  skipped?: SkippedResource[];
  /** The pages written, with where each came from; `group` for a SUMMARY.md heading. */
  pages: { id: string; sourceURL?: string; group?: true }[];
}

/** Why a run imported nothing, with the first reason a page was left out when there is one. */
function nothingImported(tree: ImportTree): ImportError {
  const first = tree.skipped[0];
  const why = first ? ` (${tree.counts.pages.skipped} skipped; "${first.source}": ${first.message})` : '';
  return new ImportError('NOTHING_IMPORTED', `The source has no page to import${why}`);
}

/**
 * The import job: read the source (a site crawled breadth-first, uploaded files, an export
 * archive) into pages and files, then write them as one revision of the target. A page or file
 * that fails is skipped, counted and listed with its reason; a source that cannot be read at all
 * fails the run with its code (FETCH_ERROR, FETCH_TIMEOUT, INVALID_SOURCE, NOTHING_IMPORTED).
 * Its counts are saved on the job as it reads (progress.ts), which getImportRun shows.
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
    async run({ job, signal, progress, log }) {
      const payload = job.payload;
      const writer = new ProgressWriter(progress, (err) => log.warn({ err }, 'content import: saving progress failed'));
      try {
        // Loaded on the first import: the DOM, Readability, turndown and the zip reader are not needed to start.
        const { readSource, READ_LIMITS } = await import('./read-source');
        const report = (p: ImportProgress) => writer.report(p);
        const tree = await readSource(ctx, payload, job.id, signal, report, { ...READ_LIMITS, ...limits });
        signal.throwIfAborted();
        if (tree.pages.length === 0) throw nothingImported(tree);
        await writer.final(tree.counts);
        if (tree.skipped.length > 0)
          log.info({ counts: tree.counts, skipped: tree.skipped }, 'content import: some resources were skipped');
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
        const { pages, files } = tree.counts;
        return {
          revision: written.revision ?? null,
          importedResources: pages.done + files.done,
          totalResources: tree.found,
          skippedResources: pages.skipped + files.skipped,
          counts: tree.counts,
          skipped: tree.skipped,
          pages: tree.pages.map((p) => ({
            id: written.pages.get(p.ref)!,
            ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}),
            ...(p.kind === 'group' ? { group: true as const } : {}),
          })),
        };
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof ImportError) throw new JobError(err.code, err.message, false);
        // The target changed under the run (its page deleted, a file refused): the run fails, saying why.
        if (err instanceof BatchError) throw new JobError('INVALID_TARGET', err.message, false);
        throw err;
      } finally {
        writer.stop();
      }
    },
  };
}
