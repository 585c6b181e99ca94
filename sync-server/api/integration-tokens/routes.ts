import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { InstallationParams } from '../integration-installations/schemas';
import { createInstallationToken } from './service';

const tags = ['Integrations'];

/** GitBook's APITemporaryToken, with the expiry Folio gives every such token. */
const TemporaryTokenSchema = Type.Object({
  token: Type.String({ description: 'Temporary access token to authenticate with the API' }),
  expiresAt: Type.String({
    format: 'date-time',
    description: 'When the token stops authenticating (an hour after it was minted)',
  }),
});

/**
 * GitBook's createIntegrationInstallationToken: the integration's own token mints a short-lived
 * token acting as one of its installations (identity/integration-tokens.ts).
 */
export const integrationTokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/integrations/:integrationName/installations/:installationId/tokens',
      {
        schema: {
          operationId: 'createIntegrationInstallationToken',
          tags,
          summary:
            "Create a temporary API token of an installation, with the installation's access and the integration's scopes (the integration's own token only)",
          params: InstallationParams,
          response: { 200: TemporaryTokenSchema },
        },
      },
      async (req) => createInstallationToken(ctx, req.principal, req.params.integrationName, req.params.installationId),
    );
  };
