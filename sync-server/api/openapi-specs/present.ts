import type { AppContext } from '../../context';
import { can, type Actor } from '../../policy';
import type { SpecError, SpecRow, VersionRow } from '../../store/openapi-specs';
import { organization } from '../authorize';

/**
 * GitBook's processing error codes; a job the runner ended otherwise is said as the nearest one.
 * Only a spec that was read and found invalid is a PARSE_ERROR: a run that never finished (the
 * server stopped, the database went away) says nothing about the spec, so it is a FETCH_ERROR,
 * with the real reason in `lastProcessedErrors`.
 */
const GITBOOK_CODES = new Set(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR']);
const codeOf = (jobCode: string | null) =>
  jobCode && GITBOOK_CODES.has(jobCode) ? jobCode : jobCode === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR';

export const specLocation = (ctx: AppContext, organizationId: string, slug: string) =>
  ctx.urls.api(`/orgs/${organizationId}/openapi/${slug}`);

/** Where a public spec's document is served, without a token (a Folio route: /v1/openapi/{org}/{slug}.json). */
export const publishedUrl = (ctx: AppContext, row: Pick<SpecRow, 'organization_id' | 'slug'>) =>
  ctx.urls.api(`/openapi/${row.organization_id}/${row.slug}.json`);

/**
 * The state to show: the row's, unless its newest job ended without saying so (a process killed
 * on its last attempt: the runner marks the job failed) or was queued again (a restart): then the
 * job's state decides.
 */
function effectiveState(row: SpecRow): {
  state: SpecRow['processing_state'];
  code: string | null;
  errors: SpecError[] | null;
  count: number;
} {
  const own = {
    state: row.processing_state,
    code: row.last_error_code,
    errors: row.last_errors,
    count: row.last_error_count,
  };
  if (row.processing_state === 'complete' || !row.job_state) return own;
  if (row.job_state === 'failed' || row.job_state === 'cancelled') {
    const code = codeOf(row.job_error_code);
    const message = row.job_error_message ?? 'The processing failed';
    return { state: 'complete', code, errors: [{ message, code }], count: 1 };
  }
  if (row.job_state === 'queued') return { ...own, state: 'pending' };
  return own;
}

/** GitBook's OpenAPISpec. */
export function presentSpec(ctx: AppContext, row: SpecRow, actor: Actor) {
  const org = organization(row.organization_id);
  const s = effectiveState(row);
  return {
    object: 'openapi-spec' as const,
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    slug: row.slug,
    ...(row.source_url ? { sourceURL: row.source_url } : {}),
    processingState: s.state,
    visibility: row.visibility,
    ...(row.last_version_id ? { lastVersion: row.last_version_id } : {}),
    ...(row.last_processed_at ? { lastProcessedAt: row.last_processed_at.toISOString() } : {}),
    ...(s.code
      ? {
          lastProcessErrorCode: s.code as 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR',
          lastProcessedErrors: s.errors ?? [],
        }
      : {}),
    lastProcessedErrorCount: s.code ? s.count : 0,
    permissions: { view: can(actor, 'view', org), edit: can(actor, 'create-openapi-spec', org) },
    urls: {
      location: specLocation(ctx, row.organization_id, row.slug),
      app: ctx.urls.app(`/o/${row.organization_id}/openapi/${row.slug}`),
      ...(row.visibility === 'public' ? { published: publishedUrl(ctx, row) } : {}),
    },
  };
}

/** Where a version's specification is: the URL it was fetched from, or its content in the API. */
export const versionUrl = (ctx: AppContext, spec: SpecRow, v: VersionRow) =>
  v.source_url ?? `${specLocation(ctx, spec.organization_id, spec.slug)}/versions/${v.id}/content`;

/** GitBook's OpenAPISpecVersion. */
export function presentVersion(ctx: AppContext, spec: SpecRow, v: VersionRow) {
  return {
    object: 'openapi-spec-version' as const,
    id: v.id,
    createdAt: v.created_at.toISOString(),
    url: versionUrl(ctx, spec, v),
    urls: { location: `${specLocation(ctx, spec.organization_id, spec.slug)}/versions/${v.id}` },
  };
}

/** GitBook's OpenAPISpecContent as JSON text, around the stored filesystem JSON (not parsed again). */
export function contentJson(ctx: AppContext, spec: SpecRow, v: VersionRow, filesystem: string): string {
  const url = versionUrl(ctx, spec, v);
  const publicUrl = spec.visibility === 'public' ? publishedUrl(ctx, spec) : null;
  return `{"filesystem":${filesystem},"url":${JSON.stringify(url)},"urls":${JSON.stringify({ source: url, public: publicUrl })}}`;
}
