import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import type { Actor } from '../../policy';
import { loadActor } from '../../access/actor';
import {
  deleteContentInstallation,
  findContentInstallation,
  insertContentInstallation,
  listContentInstallations,
  upsertContentInstallation,
  type ContentInstallationFilter,
  type ContentInstallationRow,
  type ContentKind,
  type InstallationRow,
} from '../../store/integration-installations';
import type { IntegrationRow } from '../../store/integrations';
import { checkedConfiguration, configurationSchemaOf, defaultsOf, statusOf } from './configuration';
import { installationForDelete, requireInstallation, requireTargetsKind } from './integration-rules';
import { configurationOf } from './present';
import { authorizeInstallationRead, requireIntegrationOwnerAdmin } from './service';

/**
 * Installations on spaces and on sites, which follow the same rules: installing on one, reading,
 * configuring and uninstalling it take admin rights on that space (site) — its own policy says
 * which — and an installation of the integration in its organization. The lists of an installation's
 * spaces (sites) are its organization admins'; the lists across organizations, the publisher's.
 * `spaces.ts` and `sites.ts` give the kind-specific parts.
 */

export interface ContentAccess<Out, Obj = object> {
  kind: ContentKind;
  /**
   * The organization of the space (site) the caller administers: 404 when they cannot see it, 403
   * when they may not install integrations on it.
   */
  requireAdmin(ctx: AppContext, p: Principal, targetId: string): Promise<string>;
  /** Like requireAdmin, but undefined where the caller cannot see it (a DELETE then answers 204). */
  adminForDelete(ctx: AppContext, p: Principal, targetId: string): Promise<string | undefined>;
  /** The Space (Site) objects of `extended` answers, as the caller sees them, by id. */
  objects(ctx: AppContext, p: Principal, targetIds: string[]): Promise<Map<string, Obj>>;
  present(ctx: AppContext, integration: IntegrationRow, row: ContentInstallationRow, object?: Obj): Out;
}

/** The caller's actor per organization, loaded once for a list spanning organizations. */
export async function actorsFor(ctx: AppContext, p: Principal, organizationIds: Iterable<string>) {
  const actors = new Map<string, Actor>();
  for (const id of new Set(organizationIds)) actors.set(id, await loadActor(ctx.db, id, p.userId));
  return actors;
}

const selectionOf = (installation: InstallationRow, kind: ContentKind) =>
  kind === 'space' ? installation.space_selection : installation.site_selection;

async function presentOne<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  integration: IntegrationRow,
  row: ContentInstallationRow,
  extended: boolean,
): Promise<Out> {
  const object = extended ? (await access.objects(ctx, p, [row.target_id])).get(row.target_id) : undefined;
  return access.present(ctx, integration, row, object);
}

async function presentPage<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  integration: IntegrationRow,
  filter: ContentInstallationFilter,
  page: PageRequest,
  extended: boolean,
) {
  const { rows, total } = await listContentInstallations(ctx.db, access.kind, filter, page);
  const objects = extended ? await access.objects(ctx, p, [...new Set(rows.map((r) => r.target_id))]) : undefined;
  return listPage(
    rows.map((r) => access.present(ctx, integration, r, objects?.get(r.target_id))),
    total,
    page,
  );
}

/** Installs on a space (site) of the installation's organization, with the declared defaults. */
export async function installOn<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string; targetId: string },
  extended: boolean,
): Promise<Out> {
  const { kind } = access;
  const { integration, installation } = await requireInstallation(ctx, ref.name, ref.installationId);
  const organizationId = await access.requireAdmin(ctx, p, ref.targetId);
  if (organizationId !== installation.organization_id)
    throw badRequest(
      `The ${kind} is not in the organization of installation ${installation.id}: install the integration in its organization first`,
    );
  requireTargetsKind(integration, kind);
  if (selectionOf(installation, kind) === 'all')
    throw conflict(
      `The integration is already installed on every ${kind} of the organization (${kind}_selection "all")`,
    );
  const schema = configurationSchemaOf(integration.manifest, kind);
  const configuration = defaultsOf(schema);
  const values = { status: statusOf(schema, configuration), configuration, externalIds: [] };
  // The row and its `space_installation_setup` (`site_…`) event commit together (integrations/triggers.ts).
  const row = await ctx.db.transaction(async (tx) => {
    if (!(await insertContentInstallation(tx, kind, installation.id, ref.targetId, values, ctx.clock.now())))
      return undefined;
    const created = (await findContentInstallation(tx, kind, installation.id, ref.targetId))!;
    await ctx.integrations.triggers.contentInstallationSetup(tx, kind, integration, created);
    return created;
  });
  if (!row) throw conflict(`The integration is already installed on this ${kind}`);
  ctx.jobRunner.wake();
  return presentOne(ctx, p, access, integration, row, extended);
}

async function requireContentInstallation<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string; targetId: string },
) {
  const { integration, installation } = await requireInstallation(ctx, ref.name, ref.installationId);
  await access.requireAdmin(ctx, p, ref.targetId);
  const row = await findContentInstallation(ctx.db, access.kind, installation.id, ref.targetId);
  if (!row) throw notFound(access.kind === 'space' ? 'Space installation' : 'Site installation');
  return { integration, installation, row };
}

export async function getOn<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string; targetId: string },
  extended: boolean,
): Promise<Out> {
  const { integration, row } = await requireContentInstallation(ctx, p, access, ref);
  return presentOne(ctx, p, access, integration, row, extended);
}

/** PATCH: a new configuration replaces the previous one (checked against `configurations.space` or `.site`). */
export async function updateOn<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string; targetId: string },
  body: { externalIds?: string[]; configuration?: Record<string, unknown> },
  extended: boolean,
): Promise<Out> {
  const { kind } = access;
  const { integration, installation, row } = await requireContentInstallation(ctx, p, access, ref);
  const schema = configurationSchemaOf(integration.manifest, kind);
  const configuration =
    body.configuration === undefined
      ? configurationOf(integration, kind, row)
      : checkedConfiguration(schema, body.configuration, `${kind} installation`);
  const values = {
    status: statusOf(schema, configuration, row.status),
    configuration,
    externalIds: body.externalIds ?? row.external_ids ?? [],
  };
  const previous = {
    status: statusOf(schema, configurationOf(integration, kind, row), row.status),
    configuration: configurationOf(integration, kind, row),
  };
  const updated = await ctx.db.transaction(async (tx) => {
    await upsertContentInstallation(tx, kind, installation.id, ref.targetId, values, ctx.clock.now());
    const written = (await findContentInstallation(tx, kind, installation.id, ref.targetId))!;
    if (body.configuration !== undefined)
      await ctx.integrations.triggers.contentInstallationSetup(tx, kind, integration, written, previous);
    return written;
  });
  ctx.jobRunner.wake();
  return presentOne(ctx, p, access, integration, updated, extended);
}

/**
 * DELETE: 205 when uninstalled, 204 when there was nothing (the caller can see) to uninstall; 400
 * while the installation is on every space (site): it must select them first.
 */
export async function uninstallFrom<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string; targetId: string },
): Promise<'deleted' | 'absent'> {
  const { kind } = access;
  const found = await installationForDelete(ctx, ref.name, ref.installationId);
  if (!found || !(await access.adminForDelete(ctx, p, ref.targetId))) return 'absent';
  const row = await findContentInstallation(ctx.db, kind, found.installation.id, ref.targetId);
  if (!row) return 'absent';
  if (selectionOf(found.installation, kind) === 'all')
    throw badRequest(
      `The installation is on every ${kind} of the organization (${kind}_selection "all"): set ${kind}_selection to "selected" to choose its ${kind}s`,
    );
  const deleted = await ctx.db.transaction(async (tx) => {
    if (!(await deleteContentInstallation(tx, kind, found.installation.id, ref.targetId))) return false;
    await ctx.integrations.triggers.contentInstallationDeleted(tx, kind, found.integration, row);
    return true;
  });
  ctx.jobRunner.wake();
  return deleted ? 'deleted' : 'absent';
}

/** The spaces (sites) of one installation: for those who may read the installation. */
export async function listOfInstallation<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  ref: { name: string; installationId: string },
  page: PageRequest,
  extended: boolean,
) {
  const { integration, installation } = await requireInstallation(ctx, ref.name, ref.installationId);
  await authorizeInstallationRead(ctx, p, integration, installation);
  return presentPage(ctx, p, access, integration, { installationId: installation.id }, page, extended);
}

/** The spaces (sites) of every installation of an integration: for the publishing organization's admins. */
export async function listOfIntegration<Out, Obj>(
  ctx: AppContext,
  p: Principal,
  access: ContentAccess<Out, Obj>,
  name: string,
  query: { externalId?: string; extended: boolean },
  page: PageRequest,
) {
  const integration = await requireIntegrationOwnerAdmin(ctx, p, name);
  const filter = { integrationName: name, externalId: query.externalId };
  return presentPage(ctx, p, access, integration, filter, page, query.extended);
}
