import type { AppContext } from '../../context';
import type { JobRow } from '../../store/jobs';
import type { ImportOutcome, ImportPayload } from './job';

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

/** GitBook's ContentImportRun of an import job. */
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
    pages: (outcome?.pages ?? []).map((p) => ({
      id: p.id,
      ...(p.sourceURL ? { sourceURL: p.sourceURL } : {}),
      type: 'page' as const,
      status: 'complete' as const,
    })),
  };
}
