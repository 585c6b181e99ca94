import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { can, type Actor } from '../../policy';
import { loadActor } from '../../access/actor';
import { findInstallationRow, type ContentKind, type InstallationRow } from '../../store/integration-installations';
import { findIntegration, type IntegrationRow } from '../../store/integrations';
import { organization } from '../authorize';

/**
 * What an integration's manifest says about where it may be installed: its `target` (GitBook's
 * IntegrationTarget: `all`, `organization`, `space`, `site`) and its `visibility` (`public`,
 * `unlisted`: any organization may install it; `private`: only its own).
 */

export type IntegrationTarget = 'all' | 'organization' | 'space' | 'site';
export type IntegrationVisibility = 'public' | 'unlisted' | 'private';

const TARGETS: readonly string[] = ['all', 'organization', 'space', 'site'];
const VISIBILITIES: readonly string[] = ['public', 'unlisted', 'private'];

/** The manifest's target; `all` when it names none (GitBook's default: all targets). */
export function targetOf(manifest: { target?: unknown }): IntegrationTarget {
  return TARGETS.includes(manifest.target as string) ? (manifest.target as IntegrationTarget) : 'all';
}

/** The manifest's visibility; `private` when it names none (nothing is offered to others by mistake). */
export function visibilityOf(manifest: { visibility?: unknown }): IntegrationVisibility {
  return VISIBILITIES.includes(manifest.visibility as string)
    ? (manifest.visibility as IntegrationVisibility)
    : 'private';
}

/** Whether the integration may be installed on spaces (sites): target `all` or that kind. */
export const targetsKind = (manifest: { target?: unknown }, kind: ContentKind) => {
  const target = targetOf(manifest);
  return target === 'all' || target === kind;
};

/** 400 unless the integration may be installed on spaces (sites). */
export function requireTargetsKind(integration: IntegrationRow, kind: ContentKind): void {
  if (!targetsKind(integration.manifest, kind))
    throw badRequest(
      `The integration "${integration.name}" cannot be installed on ${kind}s: its target is "${targetOf(integration.manifest)}"`,
    );
}

export async function requireIntegration(ctx: AppContext, name: string): Promise<IntegrationRow> {
  const integration = await findIntegration(ctx.db, name);
  if (!integration) throw notFound('Integration');
  return integration;
}

/**
 * An integration the caller may see, with the caller in its owner organization: public and
 * unlisted ones are seen by all; a private one by the owner organization's members who may list
 * its integrations (as getIntegrationByName), and is unknown (404) to anyone else.
 */
export async function requireVisibleIntegration(
  ctx: AppContext,
  p: Principal,
  name: string,
): Promise<{ integration: IntegrationRow; owner: Actor }> {
  const integration = await requireIntegration(ctx, name);
  const owner = await loadActor(ctx.db, integration.organization_id, p.userId);
  if (
    visibilityOf(integration.manifest) === 'private' &&
    !can(owner, 'list-integrations', organization(integration.organization_id))
  )
    throw notFound('Integration');
  return { integration, owner };
}

/** An installation of the named integration (404 for an unknown integration, or installation of another one). */
export async function requireInstallation(
  ctx: AppContext,
  name: string,
  installationId: string,
): Promise<{ integration: IntegrationRow; installation: InstallationRow }> {
  const integration = await requireIntegration(ctx, name);
  const installation = await findInstallationRow(ctx.db, name, installationId);
  if (!installation) throw notFound('Installation');
  return { integration, installation };
}

/** The installation and its integration, or undefined (a DELETE of what is not there answers 204). */
export async function installationForDelete(ctx: AppContext, name: string, installationId: string) {
  const integration = await findIntegration(ctx.db, name);
  const installation = integration && (await findInstallationRow(ctx.db, name, installationId));
  return integration && installation ? { integration, installation } : undefined;
}
