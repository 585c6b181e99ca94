import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { certificateAsPem } from '../../identity/saml-certificate';
import { serviceProviderUrls } from '../../identity/saml-urls';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import type { Actor } from '../../policy';
import {
  allSamlProviderRows,
  deleteSamlProviderRow,
  insertSamlProviderRow,
  listSamlProviderRows,
  loadSamlProviderRow,
  updateSamlProviderRow,
  type SamlProviderChanges,
  type SamlProviderRow,
} from '../../store/saml-providers';
import { loadTeamRow } from '../../store/teams';
import { actorForDelete, authorize, organization, requireOrgPermission } from '../authorize';
import { isConfigured, presentSamlProvider } from './present';
import type { SamlProviderBody } from './schemas';

/** Role a provider gives people it signs in for the first time when none is said: read only. */
const DEFAULT_ROLE = 'read';

async function present(ctx: AppContext, actor: Actor, row: SamlProviderRow) {
  const team = row.default_team_id
    ? await loadTeamRow(ctx.db, row.organization_id, actor.userId, row.default_team_id)
    : undefined;
  return presentSamlProvider(ctx, row, team, actor.membership.role);
}

async function requireProvider(ctx: AppContext, organizationId: string, providerId: string) {
  const row = await loadSamlProviderRow(ctx.db, organizationId, providerId);
  if (!row) throw notFound('SAML provider');
  return row;
}

/**
 * The columns a body sets, checked: the certificate must be an X.509
 * certificate, the default team a team of this organization ("" clears it).
 */
async function changesOf(
  ctx: AppContext,
  actor: Actor,
  organizationId: string,
  body: SamlProviderBody,
): Promise<SamlProviderChanges> {
  const changes: SamlProviderChanges = {};
  if (body.label !== undefined) changes.label = body.label.trim();
  if (body.entityID !== undefined) changes.entity_id = body.entityID.trim() || null;
  if (body.ssoURL !== undefined) changes.sso_url = body.ssoURL;
  if (body.certificate !== undefined) {
    const text = body.certificate.trim();
    if (text && !certificateAsPem(text))
      throw badRequest('certificate: not an X.509 certificate (paste the PEM block or its base64 body)');
    changes.certificate = text || null;
  }
  if (body.defaultTeam !== undefined) {
    if (body.defaultTeam && !(await loadTeamRow(ctx.db, organizationId, actor.userId, body.defaultTeam)))
      throw badRequest(`defaultTeam: "${body.defaultTeam}" is not a team of this organization`);
    changes.default_team_id = body.defaultTeam || null;
  }
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  return changes;
}

/** listSAMLProvidersInOrganizationById (policy's `manage-sso`). */
export async function listProviders(ctx: AppContext, p: Principal, organizationId: string, page: PageRequest) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'manage-sso');
  const { rows, total } = await listSamlProviderRows(ctx.db, organizationId, page);
  return listPage(await Promise.all(rows.map((r) => present(ctx, actor, r))), total, page);
}

/** createOrganizationSAMLProvider: a label alone makes a `pending` provider, completed later with PATCH. */
export async function createProvider(ctx: AppContext, p: Principal, organizationId: string, body: SamlProviderBody) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'manage-sso');
  const changes = await changesOf(ctx, actor, organizationId, body);
  const id = newId();
  await insertSamlProviderRow(ctx.db, {
    id,
    organization_id: organizationId,
    label: changes.label ?? '',
    entity_id: changes.entity_id ?? null,
    sso_url: changes.sso_url ?? null,
    certificate: changes.certificate ?? null,
    default_team_id: changes.default_team_id ?? null,
    default_role: changes.default_role === undefined ? DEFAULT_ROLE : changes.default_role,
    createdAt: ctx.clock.now(),
  });
  return present(ctx, actor, await requireProvider(ctx, organizationId, id));
}

/** getOrganizationSAMLProviderById: 404 when the organization has no such provider. */
export async function getProvider(ctx: AppContext, p: Principal, organizationId: string, providerId: string) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'manage-sso');
  return present(ctx, actor, await requireProvider(ctx, organizationId, providerId));
}

/** updateOrganizationSAMLProvider: only the fields sent change. */
export async function updateProvider(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  providerId: string,
  body: SamlProviderBody,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'manage-sso');
  await requireProvider(ctx, organizationId, providerId);
  await updateSamlProviderRow(ctx.db, organizationId, providerId, await changesOf(ctx, actor, organizationId, body));
  return present(ctx, actor, await requireProvider(ctx, organizationId, providerId));
}

/**
 * deleteOrganizationSAMLProvider: whether a provider was deleted (the route
 * answers 204 either way, also outside the organization). Sessions it started
 * stay valid until they expire or are revoked.
 */
export async function deleteProvider(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  providerId: string,
): Promise<boolean> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return false;
  authorize(actor, 'manage-sso', organization(organizationId));
  return deleteSamlProviderRow(ctx.db, organizationId, providerId);
}

/** listSSOProviderLoginsInOrganization: the configured providers a member can sign in with. */
export async function listLogins(ctx: AppContext, p: Principal, organizationId: string) {
  await requireOrgPermission(ctx.db, p, organizationId, 'list-sso-logins');
  const rows = await allSamlProviderRows(ctx.db, organizationId);
  return {
    items: rows
      .filter(isConfigured)
      .map((r) => ({ id: r.id, label: r.label, startURL: serviceProviderUrls(ctx.urls.root, r.id).startURL })),
  };
}
