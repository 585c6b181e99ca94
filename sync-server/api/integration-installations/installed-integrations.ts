import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { pageArray, type PageRequest } from '../../http/paging';
import { spaceNode } from '../../access/resources';
import { decide, type Actor } from '../../policy';
import {
  installationsInOrganization,
  installationsOnContent,
  listInstallationsOfOrganization,
  type ContentInstallationRow,
  type ContentKind,
} from '../../store/integration-installations';
import { findIntegration, type IntegrationRow } from '../../store/integrations';
import { findSite } from '../../store/sites';
import { loadSpaceRow } from '../../store/spaces';
import { organization, requireOrgPermission } from '../authorize';
import { presentIntegrationsFor } from '../integrations/service';
import { requireSite } from '../sites/access';
import { requireSpace } from '../spaces/service';
import { configurationSchemaOf, statusOf } from './configuration';
import { configurationOf } from './present';

/**
 * Which integrations are installed where, as GitBook's Integration objects: on a space (for who
 * sees the space), on a site (for who sees the site), and the installation statuses of an
 * organization (for its members who may list its integrations).
 */

/** The integrations of these names, in this order, each once (one that was just unpublished left out). */
async function integrationsNamed(ctx: AppContext, names: readonly string[]): Promise<IntegrationRow[]> {
  const rows: IntegrationRow[] = [];
  for (const name of new Set(names)) {
    const row = await findIntegration(ctx.db, name);
    if (row) rows.push(row);
  }
  return rows;
}

/** GitBook's `search`: part of the name or the title, in any case. */
function matching(rows: IntegrationRow[], search: string | undefined): IntegrationRow[] {
  const term = search?.trim().toLowerCase();
  if (!term) return rows;
  return rows.filter((r) => r.name.toLowerCase().includes(term) || r.manifest.title.toLowerCase().includes(term));
}

async function installedOn(ctx: AppContext, p: Principal, kind: ContentKind, targetId: string, search?: string) {
  const installations = await installationsOnContent(ctx.db, kind, targetId);
  const rows = matching(
    await integrationsNamed(
      ctx,
      installations.map((i) => i.integration_name),
    ),
    search,
  );
  const items = await presentIntegrationsFor(ctx, p, rows);
  return { items, count: items.length };
}

export async function listSpaceIntegrations(ctx: AppContext, p: Principal, spaceId: string, search?: string) {
  await requireSpace(ctx, p, spaceId);
  return installedOn(ctx, p, 'space', spaceId, search);
}

export async function listSiteIntegrations(
  ctx: AppContext,
  p: Principal,
  ref: { organizationId: string; siteId: string },
  search?: string,
) {
  await requireSite(ctx, p, ref);
  return installedOn(ctx, p, 'site', ref.siteId, search);
}

export interface StatusQuery {
  target?: 'organization' | 'space' | 'site';
  space?: string;
  site?: string;
}

type InstalledTarget =
  | { type: 'organization'; organizationId: string }
  | { type: 'space'; spaceId: string }
  | { type: 'site'; siteId: string };

/** One entry of the list: an installed integration, its status and where it is installed. */
interface Installed {
  integration: IntegrationRow;
  installationId: string;
  status: ReturnType<typeof statusOf>;
  target: InstalledTarget;
}

/** Loads each integration once for a list (undefined: unpublished meanwhile). */
function integrationCache(ctx: AppContext) {
  const cache = new Map<string, Promise<IntegrationRow | undefined>>();
  return (name: string) => {
    let found = cache.get(name);
    if (!found) cache.set(name, (found = findIntegration(ctx.db, name)));
    return found;
  };
}

/** The space (site) installations of an organization the caller may see; one space (site) when named, 404 when unknown there. */
async function contentInstallations(
  ctx: AppContext,
  p: Principal,
  actor: Actor,
  organizationId: string,
  kind: ContentKind,
  targetId: string | undefined,
): Promise<ContentInstallationRow[]> {
  if (kind === 'site') {
    if (targetId !== undefined && !(await findSite(ctx.db, organizationId, targetId))) throw notFound('Site');
    return installationsInOrganization(ctx.db, kind, organizationId, targetId);
  }
  if (targetId !== undefined && (await requireSpace(ctx, p, targetId)).row.organization_id !== organizationId)
    throw notFound('Space');
  const visible: ContentInstallationRow[] = [];
  for (const row of await installationsInOrganization(ctx.db, kind, organizationId, targetId)) {
    const space = await loadSpaceRow(ctx.db, row.target_id);
    if (space && actor.access.roleOf(spaceNode(space))) visible.push(row);
  }
  return visible;
}

/**
 * GitBook's listOrganizationIntegrationsStatus: the integrations installed in the organization
 * (`target` organization, the default), or on its spaces or sites (one of them with `space` or
 * `site`), each with its status.
 */
export async function listOrganizationIntegrationsStatus(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  query: StatusQuery,
  page: PageRequest,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'list-integrations');
  const target = query.target ?? 'organization';
  if (query.space !== undefined && target !== 'space') throw badRequest('space: only with target "space"');
  if (query.site !== undefined && target !== 'site') throw badRequest('site: only with target "site"');
  const integrationOf = integrationCache(ctx);
  const entries: Installed[] = [];
  if (target === 'organization') {
    for (const row of await listInstallationsOfOrganization(ctx.db, organizationId)) {
      const integration = await integrationOf(row.integration_name);
      if (!integration) continue;
      const status = statusOf(configurationSchemaOf(integration.manifest, 'account'), row.configuration, row.status);
      entries.push({ integration, installationId: row.id, status, target: { type: 'organization', organizationId } });
    }
  } else {
    const targetId = target === 'space' ? query.space : query.site;
    for (const row of await contentInstallations(ctx, p, actor, organizationId, target, targetId)) {
      const integration = await integrationOf(row.integration_name);
      if (!integration) continue;
      const schema = configurationSchemaOf(integration.manifest, target);
      const status = statusOf(schema, configurationOf(integration, target, row), row.status);
      const where: InstalledTarget =
        target === 'space' ? { type: 'space', spaceId: row.target_id } : { type: 'site', siteId: row.target_id };
      entries.push({ integration, installationId: row.installation_id, status, target: where });
    }
  }
  const result = pageArray(entries, page);
  const managesInstallations = decide(actor, 'manage-installations', organization(organizationId)).allowed;
  const presented = await presentIntegrationsFor(
    ctx,
    p,
    result.items.map((e) => e.integration),
  );
  return {
    ...result,
    items: result.items.map((e, i) => ({
      status: e.status,
      integration: presented[i]!,
      target: e.target,
      // Folio: those who manage installations learn which one it is, to read, configure or uninstall it.
      ...(managesInstallations ? { installation: { id: e.installationId } } : {}),
    })),
  };
}
