import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, conflict, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { OutboundError, parseOutboundUrl } from '../../outbound';
import { OPENAPI_SPEC_JOB, specSubject, type ProcessPayload } from '../../openapi-specs/process';
import type { Queryable } from '../../store/db';
import {
  deleteSpecRow,
  findSpecById,
  findSpecBySlug,
  findVersionRow,
  insertSpecRow,
  listSpecRows,
  listVersionRows,
  markSpecPending,
  setSpecVisibility,
  versionContent,
  type SpecRow,
  type SpecVisibility,
} from '../../store/openapi-specs';
import { actorForDelete, authorize, organization, requireOrgPermission } from '../authorize';
import { contentJson, presentSpec, presentVersion } from './present';

/**
 * OpenAPI specs: who may do what is the organization's policy — members who see the
 * organization read its specs (`view`), and creating, updating, publishing and deleting them
 * takes `create-openapi-spec` (the "create" role or admin, as in GitBook). A new source is
 * processed by a job (openapi-specs/process.ts); the answer shows the spec `pending`.
 */

export type SpecSource = { url: string } | { text: string };

/** A URL source checked for its form (http/https, no credentials): a 400 now rather than a failed job. */
function checkSource(source: SpecSource): SpecSource {
  if ('url' in source && 'text' in source) throw badRequest('source takes either url or text, not both');
  if ('url' in source) {
    try {
      parseOutboundUrl(source.url);
    } catch (err) {
      throw badRequest(`source.url: ${err instanceof OutboundError ? err.message : 'not a valid URL'}`);
    }
  }
  return source;
}

const sourceUrlOf = (source: SpecSource) => ('url' in source ? source.url : null);

async function requireSpec(ctx: AppContext, organizationId: string, slug: string, db: Queryable = ctx.db) {
  const row = await findSpecBySlug(db, organizationId, slug);
  if (!row) throw notFound('OpenAPI specification');
  return row;
}

/** Queues the processing of `source` as the spec's newest job (inside the caller's transaction). */
async function queueProcessing(
  ctx: AppContext,
  tx: Queryable,
  spec: { id: string; organizationId: string },
  source: SpecSource,
) {
  const payload: ProcessPayload = { specId: spec.id, source };
  const job = await ctx.jobRunner.enqueue(
    { kind: OPENAPI_SPEC_JOB, payload, organizationId: spec.organizationId, subject: specSubject(spec.id) },
    tx,
  );
  await markSpecPending(tx, spec.id, sourceUrlOf(source), job.id, ctx.clock.now());
}

export async function listSpecs(ctx: AppContext, p: Principal, organizationId: string, page: PageRequest) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const { rows, total } = await listSpecRows(ctx.db, organizationId, page);
  return listPage(
    rows.map((r) => presentSpec(ctx, r, actor)),
    total,
    page,
  );
}

export async function getSpec(ctx: AppContext, p: Principal, organizationId: string, slug: string) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'view');
  return presentSpec(ctx, await requireSpec(ctx, organizationId, slug), actor);
}

/** Creates a spec and queues its first processing; 409 when the slug is taken. */
export async function createSpec(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  source: SpecSource,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'create-openapi-spec');
  checkSource(source);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    const inserted = await insertSpecRow(
      tx,
      { id, organizationId, slug, sourceUrl: sourceUrlOf(source), createdBy: p.userId },
      ctx.clock.now(),
    );
    if (!inserted) throw conflict(`An OpenAPI specification with the slug "${slug}" already exists`);
    await queueProcessing(ctx, tx, { id, organizationId }, source);
  });
  // The answer shows the spec as queued; then the runner is woken (the job was queued in the transaction).
  const created = presentSpec(ctx, (await findSpecById(ctx.db, id))!, actor);
  ctx.jobRunner.wake();
  return created;
}

/** PUT: creates the spec (201) or gives it a new source to process (200). */
export async function createOrUpdateSpec(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  source: SpecSource,
): Promise<{ created: boolean; spec: ReturnType<typeof presentSpec> }> {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'create-openapi-spec');
  checkSource(source);
  const outcome = await ctx.db.transaction(async (tx) => {
    const existing = await findSpecBySlug(tx, organizationId, slug);
    if (existing) {
      await queueProcessing(ctx, tx, { id: existing.id, organizationId }, source);
      return { id: existing.id, created: false };
    }
    const id = newId();
    const inserted = await insertSpecRow(
      tx,
      { id, organizationId, slug, sourceUrl: sourceUrlOf(source), createdBy: p.userId },
      ctx.clock.now(),
    );
    // Created by a concurrent request meanwhile: the caller retries and updates it.
    if (!inserted) throw conflict(`The OpenAPI specification "${slug}" was created meanwhile: try again`);
    await queueProcessing(ctx, tx, { id, organizationId }, source);
    return { id, created: true };
  });
  const spec = presentSpec(ctx, (await findSpecById(ctx.db, outcome.id))!, actor);
  ctx.jobRunner.wake();
  return { created: outcome.created, spec };
}

export async function updateVisibility(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  visibility: SpecVisibility,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'create-openapi-spec');
  const spec = await requireSpec(ctx, organizationId, slug);
  if (spec.visibility !== visibility) await setSpecVisibility(ctx.db, spec.id, visibility, ctx.clock.now());
  return presentSpec(ctx, (await findSpecById(ctx.db, spec.id))!, actor);
}

/** DELETE: 205 when deleted; 204 when there was nothing (or nothing the caller may see) to delete. */
export async function deleteSpec(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
): Promise<'deleted' | 'absent'> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return 'absent';
  authorize(actor, 'create-openapi-spec', organization(organizationId));
  const spec = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!spec) return 'absent';
  // Its queued jobs find no spec and end; its versions go with it (ON DELETE CASCADE).
  await deleteSpecRow(ctx.db, spec.id);
  return 'deleted';
}

export async function listVersions(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  page: PageRequest,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const spec = await requireSpec(ctx, organizationId, slug);
  const { rows, total } = await listVersionRows(ctx.db, spec.id, page);
  return listPage(
    rows.map((v) => presentVersion(ctx, spec, v)),
    total,
    page,
  );
}

async function requireVersion(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'view');
  const spec = await requireSpec(ctx, organizationId, slug);
  const version = await findVersionRow(ctx.db, spec.id, versionId);
  if (!version) throw notFound('OpenAPI specification version');
  return { spec, version };
}

export async function getVersion(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
) {
  const { spec, version } = await requireVersion(ctx, p, organizationId, slug, versionId);
  return presentVersion(ctx, spec, version);
}

/** A version's content as JSON text (GitBook's OpenAPISpecContent). */
export async function getVersionContent(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
): Promise<string> {
  const { spec, version } = await requireVersion(ctx, p, organizationId, slug, versionId);
  const filesystem = await versionContent(ctx.db, version.id, 'filesystem');
  if (filesystem === undefined) throw notFound('OpenAPI specification version');
  return contentJson(ctx, spec, version, filesystem);
}

/** The newest version's entry document exactly as it was fetched or given (GitBook's OpenAPISpecRawContent). */
export async function getLatestRawContent(ctx: AppContext, p: Principal, organizationId: string, slug: string) {
  const { version } = await requireVersion(ctx, p, organizationId, slug, 'latest');
  const text = await versionContent(ctx.db, version.id, 'raw_text');
  if (text === undefined) throw notFound('OpenAPI specification version');
  return { text, format: version.raw_format };
}

/**
 * The published document of a public spec: its newest version, external $refs inlined, as JSON.
 * No token; a private spec, or one without a version yet, is a 404 like an unknown one.
 */
export async function publishedDocument(ctx: AppContext, organizationId: string, slug: string): Promise<string> {
  const spec: SpecRow | undefined = await findSpecBySlug(ctx.db, organizationId, slug);
  if (!spec || spec.visibility !== 'public' || !spec.last_version_id) throw notFound('OpenAPI specification');
  const bundle = await versionContent(ctx.db, spec.last_version_id, 'bundle');
  if (bundle === undefined) throw new ApiError(404, 'OpenAPI specification not found');
  return bundle;
}
