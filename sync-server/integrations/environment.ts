import {
  findContentInstallation,
  findInstallationRow,
  type ContentInstallationRow,
  type InstallationRow,
} from '../store/integration-installations';
import { findIntegrationRuntime, secretsContext, type IntegrationRow } from '../store/integrations';
import { signingSecretsFor } from './signing';
import type { DispatcherDeps, EventTarget } from './types';

/**
 * GitBook's IntegrationEnvironment for one event, built when it is delivered (so a retried event
 * gets fresh tokens and the configuration as it is then): apiEndpoint (this server's root — the
 * GitBook client appends `/v1` itself), apiTokens minted for the integration and the installation,
 * the Integration, IntegrationInstallation and space (site) installation objects, the integration's
 * secrets (unsealed only here, for the script) and the signing secrets.
 */

/** The rows an event's target names, loaded once per delivery. */
export interface TargetRows {
  integration: IntegrationRow;
  installation?: InstallationRow;
  spaceInstallation?: ContentInstallationRow;
  siteInstallation?: ContentInstallationRow;
}

/**
 * The rows of `target`, or undefined when one of them is gone (uninstalled meanwhile). An event
 * telling of a deletion (`installation_deleted`, `space_installation_deleted`, …) is delivered without
 * the row it names, which is gone by then; the environment then holds no installation (and no
 * installation token) for an installation deleted, as GitBook's does.
 */
export async function loadTargetRows(
  deps: Pick<DispatcherDeps, 'db'>,
  integration: IntegrationRow,
  target: EventTarget,
  eventType: string,
): Promise<TargetRows | undefined> {
  const deleted = DELETED_EVENT_TARGET[eventType];
  if (!target.installationId) return { integration };
  const installation = await findInstallationRow(deps.db, integration.name, target.installationId);
  if (!installation) return deleted === 'installation' ? { integration } : undefined;
  const rows: TargetRows = { integration, installation };
  if (target.spaceId && deleted !== 'space') {
    rows.spaceInstallation = await findContentInstallation(deps.db, 'space', installation.id, target.spaceId);
    if (!rows.spaceInstallation) return undefined;
  }
  if (target.siteId && deleted !== 'site') {
    rows.siteInstallation = await findContentInstallation(deps.db, 'site', installation.id, target.siteId);
    if (!rows.siteInstallation) return undefined;
  }
  return rows;
}

/** Which row an event of deletion names (gone when it is delivered). */
const DELETED_EVENT_TARGET: Record<string, 'installation' | 'space' | 'site' | undefined> = {
  installation_deleted: 'installation',
  space_installation_deleted: 'space',
  site_installation_deleted: 'site',
};

/** The integration's secrets, opened (an unreadable seal gives none rather than failing every event). */
async function secretsOf(deps: DispatcherDeps, name: string): Promise<Record<string, string>> {
  const runtime = await findIntegrationRuntime(deps.db, name);
  if (!runtime?.secrets_sealed) return {};
  try {
    return JSON.parse(deps.secrets.open(runtime.secrets_sealed, secretsContext(name))) as Record<string, string>;
  } catch (err) {
    deps.log.warn({ err, integration: name }, 'integration secrets could not be opened');
    return {};
  }
}

export async function buildEnvironment(
  deps: DispatcherDeps,
  rows: TargetRows,
  target: EventTarget,
): Promise<Record<string, unknown>> {
  const { integration } = rows;
  const tokens = await deps.mintTokens(deps.db, deps.clock.now(), {
    integrationName: integration.name,
    ...(rows.installation ? { installationId: rows.installation.id } : {}),
  });
  const p = deps.present;
  return {
    apiEndpoint: deps.urls.root,
    apiTokens: {
      integration: tokens.integration,
      ...(tokens.installation ? { installation: tokens.installation } : {}),
    },
    // Deprecated in GitBook's schema, still read by older integrations.
    authToken: tokens.installation ?? tokens.integration,
    integration: await p.integration(integration),
    ...(rows.installation ? { installation: p.installation(integration, rows.installation) } : {}),
    ...(rows.spaceInstallation ? { spaceInstallation: p.spaceInstallation(integration, rows.spaceInstallation) } : {}),
    ...(rows.siteInstallation ? { siteInstallation: p.siteInstallation(integration, rows.siteInstallation) } : {}),
    secrets: await secretsOf(deps, integration.name),
    signingSecrets: signingSecretsFor(deps.signingKey, target),
  };
}
