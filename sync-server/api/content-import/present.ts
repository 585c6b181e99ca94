import type { AppContext } from '../../context';
import type { ImportProgress } from '../../import/types';
import type { JobRow } from '../../store/jobs';
import type { ImportOutcome, ImportPayload } from './job';
import { progressOf } from './progress';

/** GitBook's run status of a job state (a running run asked to stop ends cancelled: the runner guarantees it). */
function statusOf(job: JobRow) {
  switch (job.state) {
    case 'queued':
      return 'pending' as const;
    case 'running':
      return job.cancel_requested ? ('cancelled' as const) : ('in-progress' as const);
    case 'succeeded':
      return 'completed' as const;
    case 'failed':
      return 'failed' as const;
    case 'cancelled':
      return 'cancelled' as const;
  }
}

/** The counts to show: a finished run's final ones, else the last saved (none while pending: not started). */
function countsOf(job: JobRow, outcome: ImportOutcome | null): ImportProgress | undefined {
  if (outcome) return progressOf(outcome.counts);
  return job.state === 'queued' ? undefined : progressOf(job.progress);
}

/**
 * The counts as run fields: GitBook's names where its API has them (`totalPages` and
 * `importedPages`, which its checkContentImport reports for a run), Folio extensions otherwise.
 */
function countFields(counts: ImportProgress | undefined) {
  if (!counts) return {};
  return {
    totalPages: counts.pages.total,
    importedPages: counts.pages.done,
    skippedPages: counts.pages.skipped,
    totalFiles: counts.files.total,
    importedFiles: counts.files.done,
    skippedFiles: counts.files.skipped,
  };
}

/** GitBook's ContentImportRun of an import job, with Folio's counts and skipped resources. */
export function presentRun(ctx: AppContext, job: JobRow) {
  const payload = job.payload as ImportPayload;
  const outcome = job.state === 'succeeded' ? (job.result as ImportOutcome | null) : null;
  const status = statusOf(job);
  return {
    object: 'import-run' as const,
    id: job.id,
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
    ...(job.started_at ? { startedAt: job.started_at.toISOString() } : {}),
    ...(status === 'completed' && job.finished_at ? { completedAt: job.finished_at.toISOString() } : {}),
    status,
    ...(status === 'failed'
      ? { reason: `${job.error_code ?? 'INTERNAL'}: ${job.error_message ?? 'The import failed'}` }
      : {}),
    source: payload.source,
    target: payload.target,
    ...(payload.site ? { site: payload.site } : {}),
    createdBy: payload.createdBy,
    urls: { location: ctx.urls.api(`/org/${payload.organizationId}/imports/${job.id}`) },
    ...countFields(countsOf(job, outcome)),
    ...(outcome?.skipped?.length ? { skipped: outcome.skipped } : {}),
    pages: (outcome?.pages ?? []).map((p) => ({
      id: p.id,
      ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}),
      // A group (a SUMMARY.md heading) is what GitBook's run calls a folder.
      type: p.group ? ('folder' as const) : ('page' as const),
      status: 'complete' as const,
    })),
  };
}
