import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, forbidden, notFound } from '../../http/errors';
import { findInstallationRow, installationsOnContent } from '../../store/integration-installations';
import { findIntegration } from '../../store/integrations';
import { requireSpace } from '../spaces/service';
import { requireOwnerAdmin, requireVisible as requireVisibleIntegration } from '../integrations/service';

/**
 * Block rendering (GitBook's renderIntegrationUIWithPost / WithGet), the blocks of the integrations
 * on a space (listSpaceIntegrationsBlocks), and tasks an integration queues for itself
 * (queueIntegrationTask).
 */

export interface RenderInput {
  componentId: string;
  props: object;
  state?: object;
  context: { type: string; spaceId?: string; editable?: boolean; theme?: 'light' | 'dark' };
  action?: object;
}

/** The GET form's `request`: LZ-string compressed JSON (`compressToEncodedURIComponent`), as GitBook's app sends it. */
export async function decodeRenderRequest(
  ctx: AppContext,
  name: string,
  request: string | undefined,
): Promise<RenderInput> {
  // An unknown integration is a 404 whatever the query holds.
  if (!(await findIntegration(ctx.db, name))) throw notFound('Integration');
  if (!request) throw badRequest('request: the LZ-string compressed JSON request is required');
  // Loaded with the first GET render, not at start; a CommonJS object (Node's ESM sees no named exports in it).
  const { default: lz } = await import('lz-string');
  let parsed: unknown;
  try {
    parsed = JSON.parse(lz.decompressFromEncodedURIComponent(request) ?? '');
  } catch {
    throw badRequest('request: not LZ-string compressed JSON');
  }
  const r = parsed as Partial<RenderInput> | null;
  if (!r || typeof r !== 'object' || typeof r.componentId !== 'string' || !r.componentId)
    throw badRequest('request: componentId is required');
  if (!r.props || typeof r.props !== 'object' || Array.isArray(r.props))
    throw badRequest('request: props must be an object');
  if (!r.context || typeof r.context !== 'object' || typeof r.context.type !== 'string')
    throw badRequest('request: context with a type is required');
  return r as RenderInput;
}

/** Contexts rendered on a space: a page of it (`document`) or its installation's configuration. */
const SPACE_CONTEXTS = new Set(['document', 'configuration_space']);

/** The integration's active installation on a space the caller may see (404 otherwise). */
async function installationOnSpace(ctx: AppContext, name: string, spaceId: string) {
  const integration = await findIntegration(ctx.db, name);
  if (!integration) throw notFound('Integration');
  const onSpace = (await installationsOnContent(ctx.db, 'space', spaceId)).find(
    (r) => r.integration_name === name && !r.trashed,
  );
  const installation = onSpace && (await findInstallationRow(ctx.db, name, onSpace.installation_id));
  if (!onSpace || !installation) throw notFound('Installation of the integration on this space');
  const present = ctx.integrations.deps.present;
  if (
    present.installation(integration, installation).status !== 'active' ||
    present.spaceInstallation(integration, onSpace).status !== 'active'
  )
    throw new ApiError(409, 'The integration is not active on this space: its configuration is incomplete or paused');
  return { integration, installation };
}

export async function renderIntegrationUI(ctx: AppContext, p: Principal, name: string, input: RenderInput) {
  if (!SPACE_CONTEXTS.has(input.context.type) || !input.context.spaceId)
    throw badRequest(`context: only "document" and "configuration_space" contexts with a spaceId are rendered`);
  const spaceId = input.context.spaceId;
  // Editing a block (an editable context, an action) takes the right to edit the space; showing it, to see it.
  const editing = input.context.editable === true || input.context.type === 'configuration_space';
  await requireSpace(ctx, p, spaceId, editing ? 'edit-content' : 'view');
  const { integration, installation } = await installationOnSpace(ctx, name, spaceId);
  const result = await ctx.integrations.blocks.render({
    integrationName: name,
    integrationVersion: integration.version,
    installationId: installation.id,
    spaceId,
    componentId: input.componentId,
    props: input.props as Record<string, unknown>,
    ...(input.state !== undefined ? { state: input.state as Record<string, unknown> } : {}),
    ...(input.action !== undefined ? { action: input.action as Record<string, unknown> } : {}),
    context: { theme: 'light', ...input.context },
    userId: p.userId,
  });
  if (!result.ok) throw new ApiError(result.status, result.message);
  return { output: result.output, cacheable: input.state === undefined && input.action === undefined };
}

/** The blocks of the integrations installed (and active) on a space the caller may see. */
export async function listSpaceIntegrationBlocks(ctx: AppContext, p: Principal, spaceId: string) {
  await requireSpace(ctx, p, spaceId);
  const out: { name: string; blocks: { id: string; title: string }[] }[] = [];
  for (const row of await installationsOnContent(ctx.db, 'space', spaceId)) {
    if (row.trashed) continue;
    const integration = await findIntegration(ctx.db, row.integration_name);
    const installation = integration && (await findInstallationRow(ctx.db, integration.name, row.installation_id));
    if (!integration || !installation || integration.manifest.blocks.length === 0) continue;
    const present = ctx.integrations.deps.present;
    if (present.installation(integration, installation).status !== 'active') continue;
    if (present.spaceInstallation(integration, row).status !== 'active') continue;
    out.push({ name: integration.name, blocks: integration.manifest.blocks as { id: string; title: string }[] });
  }
  return out;
}

/**
 * GitBook's TaskEvent, queued `schedule` seconds from now. The integration's own token queues its
 * tasks (GitBook's `integration` security); so may the admins of the organization publishing it —
 * they publish its code and run it in development mode anyway — as a way to test a task by hand.
 * Anyone else who can see the integration is refused (403), who cannot gets 404.
 */
export async function queueIntegrationTask(
  ctx: AppContext,
  p: Principal,
  name: string,
  body: { task: object; schedule?: number },
) {
  if (p.integration) {
    if (p.integration.name !== name || p.integration.installationId !== undefined)
      throw forbidden("Only the integration's own token (environment.apiTokens.integration) queues its tasks");
    if (!(await findIntegration(ctx.db, name))) throw notFound('Integration');
  } else {
    const { row, actor } = await requireVisibleIntegration(ctx, p, name);
    requireOwnerAdmin(row, actor);
  }
  const runAfter = new Date(ctx.clock.now().getTime() + Math.round((body.schedule ?? 0) * 1000));
  await ctx.db.transaction((tx) =>
    ctx.integrations.dispatcher.queue(
      tx,
      { integrationName: name, event: { type: 'task', task: body.task as Record<string, unknown> } },
      runAfter,
    ),
  );
  ctx.jobRunner.wake();
}
