import { newApiToken } from '../http/ids';
import type { Queryable } from '../store/db';
import { findIntegration } from '../store/integrations';
import { findInstallationRow } from '../store/integration-installations';
import { insertIntegrationToken, upsertBotUser } from '../store/integration-tokens';
import { tokenDigests } from './token-digest';

/**
 * Integration and installation API tokens: what GitBook's runtime hands an integration's script as
 * `environment.apiTokens.integration` (acts as the integration: reads its own installations, mints
 * installation tokens) and `.installation` (acts as one installation, within what it was granted).
 * 256 random bits each, stored as keyed digests only, valid for an hour (GitBook's installation
 * tokens are short-lived too): a leaked one stops working soon on its own.
 *
 * Their principals act as bot users, never as a human: one per integration and one per
 * installation, with ids no human has (humans' ids are [a-zA-Z0-9] only, these hold a `_`).
 * The bot rows exist because revisions, change requests and other rows reference `users(id)`.
 */

/** How long a minted token authenticates. */
export const INTEGRATION_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Tokens minted for one dispatch (the installation token only when an installation is given). */
export interface IntegrationTokens {
  integration: string;
  installation?: string;
  expiresAt: Date;
}

const INTEGRATION_BOT = 'integration_';
const INSTALLATION_BOT = 'installation_';

/** The stable user id an integration's own token acts as. */
export const integrationBotId = (integrationName: string) => `${INTEGRATION_BOT}${integrationName}`;
/** The stable user id an installation's token acts as. */
export const installationBotId = (installationId: string) => `${INSTALLATION_BOT}${installationId}`;

/** Which bot a user id is, if any (undefined: a human). */
export function botOf(userId: string): { installationId: string } | { integrationName: string } | undefined {
  if (userId.startsWith(INSTALLATION_BOT)) return { installationId: userId.slice(INSTALLATION_BOT.length) };
  if (userId.startsWith(INTEGRATION_BOT)) return { integrationName: userId.slice(INTEGRATION_BOT.length) };
  return undefined;
}

async function storeToken(
  db: Queryable,
  now: Date,
  expiresAt: Date,
  integrationName: string,
  installationId: string | null,
): Promise<string> {
  for (;;) {
    const token = newApiToken();
    const { keyed } = await tokenDigests(db, token);
    const stored = await insertIntegrationToken(db, {
      tokenHash: keyed,
      integrationName,
      installationId,
      createdAt: now,
      expiresAt,
    });
    if (stored) return token;
  }
}

/**
 * Mints the integration's token and, given an installation of it, that installation's token, both
 * expiring an hour after `now`. Throws when the integration (or the installation, or the
 * installation is another integration's) does not exist. The plain tokens are returned once.
 */
export async function mintIntegrationTokens(
  db: Queryable,
  now: Date,
  grant: { integrationName: string; installationId?: string },
): Promise<IntegrationTokens> {
  const integration = await findIntegration(db, grant.integrationName);
  if (!integration) throw new Error(`No integration "${grant.integrationName}"`);
  if (grant.installationId !== undefined && !(await findInstallationRow(db, integration.name, grant.installationId)))
    throw new Error(`No installation "${grant.installationId}" of "${integration.name}"`);
  const expiresAt = new Date(now.getTime() + INTEGRATION_TOKEN_TTL_MS);
  await upsertBotUser(db, integrationBotId(integration.name), integration.manifest.title || integration.name);
  const tokens: IntegrationTokens = {
    integration: await storeToken(db, now, expiresAt, integration.name, null),
    expiresAt,
  };
  if (grant.installationId !== undefined)
    tokens.installation = (await mintInstallationToken(db, now, integration.name, grant.installationId))?.token;
  return tokens;
}

/**
 * Mints one installation's token (GitBook's createIntegrationInstallationToken), expiring an hour
 * after `now`; undefined when the integration has no such installation.
 */
export async function mintInstallationToken(
  db: Queryable,
  now: Date,
  integrationName: string,
  installationId: string,
): Promise<{ token: string; expiresAt: Date } | undefined> {
  const integration = await findIntegration(db, integrationName);
  const installation = integration && (await findInstallationRow(db, integrationName, installationId));
  if (!integration || !installation) return undefined;
  const expiresAt = new Date(now.getTime() + INTEGRATION_TOKEN_TTL_MS);
  await upsertBotUser(db, installationBotId(installation.id), integration.manifest.title || integration.name);
  return { token: await storeToken(db, now, expiresAt, integrationName, installation.id), expiresAt };
}
