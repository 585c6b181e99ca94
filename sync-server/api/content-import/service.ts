import { setTimeout as sleep } from 'node:timers/promises';
import type { Static } from 'typebox';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { pageArray, type PageRequest } from '../../http/paging';
import { OutboundError, parseOutboundUrl } from '../../outbound';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../../shared/sync-contract';
import { findImportRun, listImportRuns, onlySiteOfSpace, CONTENT_IMPORT_JOB } from '../../store/import-runs';
import type { JobRow } from '../../store/jobs';
import { findSite } from '../../store/sites';
import { loadUploadSlot } from '../../store/uploads';
import { requireOrgPermission } from '../authorize';
import { requireChangeRequest } from '../change-requests/service';
import { requireSpace } from '../spaces/service';
import type { ImportOutcome, ImportPayload } from './job';
import { presentRun } from './present';
import type { ImportContentBody, ImportSource, ImportTarget, ListImportRunsQuery, StartImportRunBody } from './schemas';

/**
 * Content import: GitBook's import runs (start, list, get, cancel) and the older content/import of
 * a space or a change request, which starts a run and answers once it has ended. Everything the
 * caller can get wrong (the target, their permission, the URL's form, upload keys) is refused
 * here, before a run exists; what can only be known by reading the source fails the run.
 */

/** Checks the target and the caller's right to edit it; answers the target with the change request's id. */
async function checkTarget(ctx: AppContext, p: Principal, target: ImportTarget) {
  let changeRequest: string | undefined;
  let organizationId: string;
  if (target.changeRequest !== undefined) {
    const { cr, row } = await requireChangeRequest(ctx, p, target.space, target.changeRequest, 'edit-content');
    changeRequest = cr.id;
    organizationId = row.organization_id;
  } else organizationId = (await requireSpace(ctx, p, target.space, 'edit-content')).row.organization_id;
  if (target.page !== undefined) {
    const doc = changeRequest ? crContentDoc(changeRequest) : spaceContentDoc(target.space);
    const page = target.page;
    if (!(await ctx.hub.withDoc(doc, (d) => new ContentDoc(d).hasPage(page)))) throw notFound('Page');
  }
  return {
    organizationId,
    target: {
      space: target.space,
      ...(changeRequest ? { changeRequest } : {}),
      ...(target.page ? { page: target.page } : {}),
    },
  };
}

/** Checks the source's form (a URL the fetcher takes; upload keys of this organization, uploaded). */
async function checkSource(ctx: AppContext, organizationId: string, source: ImportSource): Promise<ImportSource> {
  if (source.type === 'website') {
    try {
      return { type: 'website', url: parseOutboundUrl(source.url).href };
    } catch (err) {
      if (err instanceof OutboundError) throw badRequest(`source.url: ${err.message}`);
      throw err;
    }
  }
  for (const [i, key] of source.files.entries()) {
    const slot = await loadUploadSlot(ctx.db, key);
    if (!slot || slot.organization_id !== organizationId || !slot.sha256)
      throw badRequest(`source.files[${i}]: no file was uploaded with the key "${key}" in this organization`);
  }
  return source;
}

async function start(
  ctx: AppContext,
  p: Principal,
  target: ImportTarget,
  source: ImportSource,
  site: string | undefined,
  organizationIdOfPath?: string,
): Promise<JobRow> {
  const checked = await checkTarget(ctx, p, target);
  // A run is listed under its organization: a space of another one is not found there.
  if (organizationIdOfPath !== undefined && checked.organizationId !== organizationIdOfPath) throw notFound('Space');
  const payload: ImportPayload = {
    organizationId: checked.organizationId,
    source: await checkSource(ctx, checked.organizationId, source),
    target: checked.target,
    createdBy: p.userId,
  };
  // A site named by the caller must be one of the organization's (GitBook: a site being set up).
  if (site !== undefined && !(await findSite(ctx.db, checked.organizationId, site))) throw notFound('Site');
  const resolvedSite = site ?? (await onlySiteOfSpace(ctx.db, target.space));
  if (resolvedSite) payload.site = resolvedSite;
  // One run per space at a time, oldest first: two imports into one space never interleave.
  return ctx.jobRunner.enqueue({
    kind: CONTENT_IMPORT_JOB,
    payload,
    organizationId: checked.organizationId,
    subject: `import:${target.space}`,
  });
}

/** startImportRun: the run, pending. */
export async function startImportRun(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: Static<typeof StartImportRunBody>,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const job = await start(ctx, p, body.target, body.source, body.site, organizationId);
  return presentRun(ctx, job);
}

/** How a failed run's code is answered by content/import: what the source is wrong about is the caller's 400. */
function failureOf(job: JobRow): ApiError {
  const message = `${job.error_code ?? 'INTERNAL'}: ${job.error_message ?? 'The import failed'}`;
  switch (job.error_code) {
    case 'INVALID_SOURCE':
    case 'NOTHING_IMPORTED':
    case 'FETCH_ERROR':
    case 'FETCH_TIMEOUT':
      return new ApiError(400, `The content could not be imported: ${message}`);
    case 'INVALID_TARGET':
    case 'CANCELLED':
      return new ApiError(409, `The content could not be imported: ${message}`);
    default:
      return new ApiError(500, `The content could not be imported: ${message}`);
  }
}

/**
 * Waits for a run to end (the runner saves its end in its row). `stopping` is aborted when the
 * server closes: a waiting request must not hold the shutdown up (the run goes on after the restart).
 */
async function ended(ctx: AppContext, id: string, stopping: AbortSignal): Promise<JobRow> {
  for (let delay = 20; ; delay = Math.min(250, delay * 2)) {
    const job = await ctx.jobRunner.get(id);
    if (!job) throw new ApiError(500, 'The import run disappeared');
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return job;
    if (stopping.aborted)
      throw new ApiError(
        503,
        `The server is stopping; the import goes on after it restarts (import run ${id} of organization ${job.organization_id})`,
      );
    await sleep(delay, undefined, { signal: stopping }).catch(() => undefined);
  }
}

/** content/import of a space or a change request (Folio keeps GitBook's older operation): one run, awaited. */
export async function importContent(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  changeRequestId: string | undefined,
  body: Static<typeof ImportContentBody>,
  stopping: AbortSignal,
) {
  const source: ImportSource = 'type' in body.source ? body.source : { type: 'website', url: body.source.url };
  const job = await start(
    ctx,
    p,
    { space: spaceId, ...(changeRequestId !== undefined ? { changeRequest: changeRequestId } : {}) },
    source,
    undefined,
  );
  const done = await ended(ctx, job.id, stopping);
  if (done.state !== 'succeeded') throw failureOf(done);
  const outcome = done.result as ImportOutcome;
  return {
    revision: outcome.revision ?? '',
    importedResources: outcome.importedResources,
    totalResources: outcome.totalResources,
  };
}

/** Whether the caller may see (or, with 'edit-content', change) the run's target space. */
async function canReach(ctx: AppContext, p: Principal, job: JobRow, action: 'view' | 'edit-content'): Promise<boolean> {
  const space = (job.payload as ImportPayload).target.space;
  try {
    await requireSpace(ctx, p, space, action);
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return false;
    throw err;
  }
}

export async function listRuns(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  query: Static<typeof ListImportRunsQuery>,
  page: PageRequest,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const rows = await listImportRuns(ctx.db, organizationId, query);
  const visible: JobRow[] = [];
  for (const row of rows) if (await canReach(ctx, p, row, 'view')) visible.push(row);
  const listed = pageArray(visible, page);
  return { ...listed, items: listed.items.map((r) => presentRun(ctx, r)) };
}

async function requireRun(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  id: string,
  action: 'view' | 'edit-content',
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const job = await findImportRun(ctx.db, organizationId, id);
  if (!job || !(await canReach(ctx, p, job, 'view'))) throw notFound('Import run');
  if (action === 'edit-content') await requireSpace(ctx, p, (job.payload as ImportPayload).target.space, action);
  return job;
}

export async function getRun(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  return presentRun(ctx, await requireRun(ctx, p, organizationId, id, 'view'));
}

/** cancelImportRun: a pending run ends at once, a running one at its next check (it writes nothing after). */
export async function cancelRun(ctx: AppContext, p: Principal, organizationId: string, id: string) {
  const job = await requireRun(ctx, p, organizationId, id, 'edit-content');
  if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled')
    throw badRequest(`The import run has already ended (${presentRun(ctx, job).status})`);
  const cancelled = await ctx.jobRunner.cancel(job.id);
  return presentRun(ctx, cancelled ?? (await ctx.jobRunner.get(job.id))!);
}
