import type { AppContext } from '../../context';
import { mintInstallationToken } from '../../identity/integration-tokens';
import type { Principal } from '../../identity/principal';
import { forbidden, notFound } from '../../http/errors';
import { requireVisibleIntegration } from '../integration-installations/integration-rules';

/**
 * Minting an installation token (GitBook's createIntegrationInstallationToken). GitBook's only
 * security scheme for it is `integration` ("You must be authenticated as the integration to obtain
 * this token"): not a user, not even an admin of the publishing organization. A human who wants to
 * act on an organization uses their own token; handing them one acting as an installation would
 * let them act with its grants under its name. So only the integration's own token, for its own
 * installations; the route scope guard (http/auth.ts) has already refused installation tokens.
 */
export async function createInstallationToken(
  ctx: AppContext,
  p: Principal,
  integrationName: string,
  installationId: string,
): Promise<{ token: string; expiresAt: string }> {
  const caller = p.integration;
  // What a human may not even see is unknown to them (404) before it is refused (403).
  if (!caller) await requireVisibleIntegration(ctx, p, integrationName);
  if (!caller || caller.installationId !== undefined)
    throw forbidden(
      "Only the integration's own token (environment.apiTokens.integration) may create installation tokens",
    );
  // Another integration's installations are not this one's to know about.
  if (caller.name !== integrationName) throw notFound('Integration');
  const minted = await mintInstallationToken(ctx.db, ctx.clock.now(), integrationName, installationId);
  if (!minted) throw notFound('Installation');
  return { token: minted.token, expiresAt: minted.expiresAt.toISOString() };
}
