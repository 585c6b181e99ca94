import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, forbidden } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { decide, type Actor } from '../../policy';
import { loadActor } from '../../access/actor';
import {
  deleteInstallationRow,
  findInstallationRow,
  insertInstallationRow,
  listInstallationRows,
  updateInstallationRow,
  type InstallationChanges,
  type InstallationRow,
  type Selection,
} from '../../store/integration-installations';
import { findIntegration, type IntegrationRow } from '../../store/integrations';
import { actorForDelete, apiErrorOf, authorize, organization, requireOrgPermission } from '../authorize';
import { checkedConfiguration, configurationSchemaOf, defaultsOf, statusOf } from './configuration';
import {
  installationForDelete,
  requireInstallation,
  requireVisibleIntegration,
  targetsKind,
  visibilityOf,
} from './integration-rules';
import { presentInstallation } from './present';

/**
 * Installations of an integration in organizations. An organization's admins install, configure
 * and uninstall (`manage-installations`); the admins of the organization that publishes the
 * integration list its installations everywhere (`list-integration-installations`) and read each.
 * A private integration is installed only in its own organization, and unknown to whoever may not
 * see it (integration-rules.ts).
 */

export async function installIntegration(ctx: AppContext, p: Principal, name: string, organizationId: string) {
  const { integration } = await requireVisibleIntegration(ctx, p, name);
  await requireOrgPermission(ctx.db, p, organizationId, 'manage-installations');
  if (visibilityOf(integration.manifest) === 'private' && organizationId !== integration.organization_id)
    throw forbidden(`The integration "${name}" is private: it can only be installed in its own organization`);
  const schema = configurationSchemaOf(integration.manifest, 'account');
  const configuration = defaultsOf(schema);
  const id = newId();
  // The row and its `installation_setup` event commit together (integrations/triggers.ts).
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await insertInstallationRow(
      tx,
      {
        id,
        integrationName: name,
        organizationId,
        status: statusOf(schema, configuration),
        configuration,
        createdBy: p.userId,
      },
      ctx.clock.now(),
    );
    if (!inserted) return undefined;
    const created = (await findInstallationRow(tx, name, id))!;
    await ctx.integrations.triggers.installationSetup(tx, integration, created);
    return created;
  });
  if (!row) throw conflict(`The integration "${name}" is already installed in this organization`);
  ctx.jobRunner.wake();
  return presentInstallation(ctx, integration, row);
}

/**
 * Who may read an installation: its organization's admins, and the admins of the organization
 * publishing the integration. A refusal is the installing organization's (the caller's own view).
 */
export async function authorizeInstallationRead(
  ctx: AppContext,
  p: Principal,
  integration: IntegrationRow,
  installation: InstallationRow,
): Promise<void> {
  // The integration's own token reads its installations, an installation's token itself (GitBook's security schemes).
  const caller = p.integration;
  if (caller?.name === integration.name && (!caller.installationId || caller.installationId === installation.id))
    return;
  const actor = await loadActor(ctx.db, installation.organization_id, p.userId);
  const decision = decide(actor, 'manage-installations', organization(installation.organization_id));
  if (decision.allowed) return;
  if (integration.organization_id !== installation.organization_id) {
    const owner = await loadActor(ctx.db, integration.organization_id, p.userId);
    if (decide(owner, 'list-integration-installations', organization(integration.organization_id)).allowed) return;
  }
  throw apiErrorOf(decision);
}

/**
 * The integration, for the admins of its organization, who see its installations everywhere: 404
 * when the caller may not see it at all, 403 for anyone else.
 */
export async function requireIntegrationOwnerAdmin(ctx: AppContext, p: Principal, name: string) {
  // The integration's own token lists its installations (GitBook's `integration` security scheme).
  if (p.integration?.name === name && !p.integration.installationId) {
    const own = await findIntegration(ctx.db, name);
    if (own) return own;
  }
  const { integration, owner } = await requireVisibleIntegration(ctx, p, name);
  if (owner.membership.role === undefined)
    throw forbidden('Only the admins of the organization that publishes this integration see its installations');
  authorize(owner, 'list-integration-installations', organization(integration.organization_id));
  return integration;
}

export async function listInstallations(
  ctx: AppContext,
  p: Principal,
  name: string,
  externalId: string | undefined,
  page: PageRequest,
) {
  const integration = await requireIntegrationOwnerAdmin(ctx, p, name);
  const { rows, total } = await listInstallationRows(ctx.db, name, externalId, page);
  return listPage(
    rows.map((r) => presentInstallation(ctx, integration, r)),
    total,
    page,
  );
}

export async function getInstallation(ctx: AppContext, p: Principal, name: string, installationId: string) {
  const { integration, installation } = await requireInstallation(ctx, name, installationId);
  await authorizeInstallationRead(ctx, p, integration, installation);
  return presentInstallation(ctx, integration, installation);
}

export interface InstallationUpdate {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
  space_selection?: Selection;
  site_selection?: Selection;
}

/** 400 when `all` spaces (sites) are selected for an integration that is not installed on spaces (sites). */
function checkSelections(integration: IntegrationRow, body: InstallationUpdate): void {
  for (const [kind, selection] of [
    ['space', body.space_selection],
    ['site', body.site_selection],
  ] as const) {
    if (selection === 'all' && !targetsKind(integration.manifest, kind))
      throw badRequest(
        `The integration "${integration.name}" is not installed on ${kind}s: ${kind}_selection cannot be "all"`,
      );
  }
}

/**
 * PATCH: a new configuration replaces the previous one (checked against the integration's
 * `configurations.account`); external ids and selections as given.
 */
export async function updateInstallation(
  ctx: AppContext,
  p: Principal,
  name: string,
  installationId: string,
  body: InstallationUpdate,
) {
  const { integration, installation } = await requireInstallation(ctx, name, installationId);
  await requireOrgPermission(ctx.db, p, installation.organization_id, 'manage-installations');
  checkSelections(integration, body);
  const schema = configurationSchemaOf(integration.manifest, 'account');
  const configuration =
    body.configuration === undefined ? undefined : checkedConfiguration(schema, body.configuration, 'installation');
  const changes: InstallationChanges = {
    status: statusOf(schema, configuration ?? installation.configuration, installation.status),
    configuration,
    externalIds: body.externalIds,
    spaceSelection: body.space_selection,
    siteSelection: body.site_selection,
  };
  const previous = {
    status: statusOf(schema, installation.configuration, installation.status),
    configuration: installation.configuration,
  };
  const updated = await ctx.db.transaction(async (tx) => {
    await updateInstallationRow(tx, installation.id, changes, ctx.clock.now());
    const row = (await findInstallationRow(tx, name, installation.id))!;
    // A new configuration is set up again by the integration (GitBook's installation_setup with `previous`).
    if (configuration !== undefined) await ctx.integrations.triggers.installationSetup(tx, integration, row, previous);
    return row;
  });
  ctx.jobRunner.wake();
  return presentInstallation(ctx, integration, updated);
}

/** DELETE: 205 when uninstalled (with its space and site installations); 204 when there was nothing to see. */
export async function uninstallIntegration(
  ctx: AppContext,
  p: Principal,
  name: string,
  installationId: string,
): Promise<'deleted' | 'absent'> {
  const found = await installationForDelete(ctx, name, installationId);
  if (!found) return 'absent';
  const actor: Actor | undefined = await actorForDelete(ctx.db, p, found.installation.organization_id);
  if (!actor) return 'absent';
  authorize(actor, 'manage-installations', organization(found.installation.organization_id));
  const deleted = await ctx.db.transaction(async (tx) => {
    // Queued with the deletion: the integration hears of it if and only if it happened.
    if (!(await deleteInstallationRow(tx, found.installation.id))) return false;
    await ctx.integrations.triggers.installationDeleted(tx, found.integration, found.installation);
    return true;
  });
  ctx.jobRunner.wake();
  return deleted ? 'deleted' : 'absent';
}
