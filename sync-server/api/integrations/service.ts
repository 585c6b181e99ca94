import { loadActor } from '../../access/actor';
import type { AppContext } from '../../context';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import type { Principal } from '../../identity/principal';
import { checkAddress, OutboundError, parseAllowList, parseOutboundUrl } from '../../outbound';
import { can, type Actor } from '../../policy';
import {
  deleteIntegration,
  findAsset,
  findEventRow,
  findIntegration,
  findOrganizationIdByIdOrHostname,
  insertIntegration,
  listEventRows,
  listIntegrationRows,
  lockIntegration,
  replaceAssets,
  republishIntegration,
  secretsContext,
  setDevelopmentMode,
  type IntegrationFilter,
  type IntegrationRow,
} from '../../store/integrations';
import { loadOrganizationRow, type OrgRow } from '../../store/organizations';
import { authorize, organization, requireOrgPermission } from '../authorize';
import { extensionOf, parseAssetFile } from './images';
import { preparePublish, type PublishInput } from './manifest';
import { presentEvent, presentEventWithTrace, presentIntegration, type PresentedIntegration } from './present';

/**
 * Integrations: an organization's admins publish them (`publish-integrations`), and only they
 * republish, unpublish, switch development mode and read events. Who sees one is its visibility:
 * `public` (listed) and `unlisted` (found by name) integrations are seen by every signed-in caller,
 * `private` ones by the owner organization's members who may list integrations there
 * (`list-integrations`); to anyone else a private integration does not exist (404, 204 on DELETE).
 */

/** The caller in the owner organization, and whether they may see the integration at all. */
async function viewerOf(ctx: AppContext, p: Principal, row: IntegrationRow) {
  const actor = await loadActor(ctx.db, row.organization_id, p.userId);
  const visible =
    row.manifest.visibility !== 'private' || can(actor, 'list-integrations', organization(row.organization_id));
  return { actor, visible };
}

/** The integration, when the caller may see it (404 otherwise), with their actor in its organization. */
export async function requireVisible(ctx: AppContext, p: Principal, name: string) {
  const row = await findIntegration(ctx.db, name);
  if (!row) throw notFound('Integration');
  const { actor, visible } = await viewerOf(ctx, p, row);
  if (!visible) throw notFound('Integration');
  return { row, actor };
}

/** Only the owner organization's admins change what they see: others get a 403 naming why. */
export function requireOwnerAdmin(row: IntegrationRow, actor: Actor) {
  if (actor.membership.role === undefined)
    throw forbidden('Only admins of the organization that publishes this integration may change it or read its events');
  authorize(actor, 'publish-integrations', organization(row.organization_id));
}

async function ownerRow(ctx: AppContext, organizationId: string): Promise<OrgRow> {
  const org = await loadOrganizationRow(ctx.db, organizationId);
  // The foreign key cascades: an integration never outlives its organization.
  if (!org) throw notFound('Integration');
  return org;
}

/**
 * Integrations as the API shows them to `p`: each with its owner organization and the caller's
 * permissions there (loaded once per owner). For lists of integrations other modules show too.
 */
export async function presentIntegrationsFor(
  ctx: AppContext,
  p: Principal,
  rows: readonly IntegrationRow[],
): Promise<PresentedIntegration[]> {
  const owners = new Map<string, Promise<{ org: OrgRow; actor: Actor }>>();
  const ownerOf = (organizationId: string) => {
    let found = owners.get(organizationId);
    if (!found) {
      found = Promise.all([ownerRow(ctx, organizationId), loadActor(ctx.db, organizationId, p.userId)]).then(
        ([org, actor]) => ({ org, actor }),
      );
      owners.set(organizationId, found);
    }
    return found;
  };
  const out: PresentedIntegration[] = [];
  for (const row of rows) {
    const { org, actor } = await ownerOf(row.organization_id);
    out.push(presentIntegration(ctx, row, org, actor));
  }
  return out;
}

export async function getIntegration(ctx: AppContext, p: Principal, name: string) {
  const { row, actor } = await requireVisible(ctx, p, name);
  return presentIntegration(ctx, row, await ownerRow(ctx, row.organization_id), actor);
}

/** The list filters of GitBook's query (`owner` by id or hostname; an unknown owner matches nothing). */
export interface ListFilters extends Omit<IntegrationFilter, 'visibleTo' | 'ownerId'> {
  owner?: string;
}

async function listWith(
  ctx: AppContext,
  p: Principal,
  filter: IntegrationFilter,
  owner: string | undefined,
  page: PageRequest,
) {
  if (owner !== undefined) {
    const ownerId = await findOrganizationIdByIdOrHostname(ctx.db, owner);
    if (!ownerId) return listPage([], 0, page);
    filter = { ...filter, ownerId };
  }
  const { rows, total } = await listIntegrationRows(ctx.db, filter, page);
  return listPage(await presentIntegrationsFor(ctx, p, rows), total, page);
}

/** GitBook's listIntegrations: the public integrations (unlisted and private ones are never listed here). */
export function listIntegrations(ctx: AppContext, p: Principal, filters: ListFilters, page: PageRequest) {
  const { owner, ...filter } = filters;
  return listWith(ctx, p, filter, owner, page);
}

/**
 * GitBook's listOrganizationIntegrations: what the organization's members may install — the public
 * integrations, every integration the organization owns (private and unlisted too), and those
 * installed there.
 */
export async function listOrganizationIntegrations(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: ListFilters,
  page: PageRequest,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'list-integrations');
  const { owner, ...filter } = filters;
  return listWith(ctx, p, { ...filter, visibleTo: organizationId }, owner, page);
}

/**
 * Publishes `name` under the organization the body names (by id or hostname): version 1, or the
 * next version of the organization's own integration. The whole manifest is replaced (what a
 * publish leaves out is gone, secrets included); development mode stays as it was.
 */
export async function publishIntegration(ctx: AppContext, p: Principal, name: string, body: PublishInput) {
  const organizationId = await findOrganizationIdByIdOrHostname(ctx.db, body.organization);
  if (!organizationId) throw notFound(`Organization "${body.organization}"`);
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'publish-integrations');
  const { manifest, assets, secretsJson } = preparePublish(name, body);
  const published = {
    name,
    organizationId,
    manifest,
    script: body.script,
    secretsSealed: secretsJson === null ? null : ctx.secrets.seal(secretsJson, secretsContext(name)),
    publishedBy: p.userId,
  };
  await ctx.db.transaction(async (tx) => {
    const existing = await lockIntegration(tx, name);
    if (existing && existing.organization_id !== organizationId)
      throw conflict(`The name "${name}" is taken by another organization's integration: choose another name`);
    if (existing) await republishIntegration(tx, published, ctx.clock.now());
    else if (!(await insertIntegration(tx, published, ctx.clock.now())))
      throw conflict(`The integration "${name}" was published meanwhile: try again`);
    await replaceAssets(tx, name, assets);
  });
  const row = (await findIntegration(ctx.db, name))!;
  return presentIntegration(ctx, row, await ownerRow(ctx, organizationId), actor);
}

/** DELETE: 'deleted' (205), or 'absent' (204) when there was nothing the caller may see. */
export async function unpublishIntegration(ctx: AppContext, p: Principal, name: string): Promise<'deleted' | 'absent'> {
  const row = await findIntegration(ctx.db, name);
  if (!row) return 'absent';
  const { actor, visible } = await viewerOf(ctx, p, row);
  if (!visible) return 'absent';
  requireOwnerAdmin(row, actor);
  // Its images, installations and events go with it (ON DELETE CASCADE).
  return (await deleteIntegration(ctx.db, name)) ? 'deleted' : 'absent';
}

/**
 * A tunnel URL the outbound fetcher will accept when events are dispatched: http(s), no
 * credentials, and, for a literal address (or localhost), one FOLIO_OUTBOUND_ALLOW admits. A host
 * name is resolved and checked again at each dispatch (its addresses may change).
 */
function checkTunnelUrl(ctx: AppContext, raw: string): string {
  let url: URL;
  try {
    url = parseOutboundUrl(raw);
  } catch (err) {
    throw badRequest(`tunnelUrl: ${err instanceof OutboundError ? err.message : 'not a valid URL'}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const isLocalhost = host === 'localhost' || host.endsWith('.localhost');
  const refused = checkAddress(parseAllowList(ctx.config.outboundAllow), isLocalhost ? '127.0.0.1' : host, host);
  // 'invalid' is a host name, not an address: nothing to decide before it is resolved.
  if (refused && refused !== 'invalid')
    throw badRequest(
      `tunnelUrl: the server does not connect to ${refused} addresses (FOLIO_OUTBOUND_ALLOW admits some)`,
    );
  return url.toString();
}

export async function setDevelopmentModeOn(
  ctx: AppContext,
  p: Principal,
  name: string,
  body: { tunnelUrl: string; all?: boolean },
) {
  const { row, actor } = await requireVisible(ctx, p, name);
  requireOwnerAdmin(row, actor);
  const tunnelUrl = checkTunnelUrl(ctx, body.tunnelUrl);
  await setDevelopmentMode(ctx.db, name, { tunnelUrl, all: body.all ?? false }, ctx.clock.now());
}

/** DELETE …/dev: 'disabled' (205), or 'absent' (204) when there is no integration the caller may see. */
export async function disableDevelopmentMode(
  ctx: AppContext,
  p: Principal,
  name: string,
): Promise<'disabled' | 'absent'> {
  const row = await findIntegration(ctx.db, name);
  if (!row) return 'absent';
  const { actor, visible } = await viewerOf(ctx, p, row);
  if (!visible) return 'absent';
  requireOwnerAdmin(row, actor);
  await setDevelopmentMode(ctx.db, name, null, ctx.clock.now());
  return 'disabled';
}

export async function listEvents(ctx: AppContext, p: Principal, name: string, page: PageRequest) {
  const { row, actor } = await requireVisible(ctx, p, name);
  requireOwnerAdmin(row, actor);
  const { rows, total } = await listEventRows(ctx.db, name, page);
  return listPage(rows.map(presentEvent), total, page);
}

export async function getEvent(ctx: AppContext, p: Principal, name: string, eventId: string) {
  const { row, actor } = await requireVisible(ctx, p, name);
  requireOwnerAdmin(row, actor);
  const event = await findEventRow(ctx.db, name, eventId);
  if (!event) throw notFound('Integration event');
  return presentEventWithTrace(event);
}

/** An image of an integration by its file name (`<sha256>.<ext>`), for the public asset route. */
export async function getAsset(ctx: AppContext, name: string, file: string) {
  const parsed = parseAssetFile(file);
  const asset = parsed && (await findAsset(ctx.db, name, parsed.sha256));
  if (!asset || extensionOf(asset.content_type) !== parsed.ext) throw notFound('Integration image');
  return { contentType: asset.content_type, bytes: Buffer.from(asset.bytes) };
}
