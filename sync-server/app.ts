import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context';
import { installAuth } from './http/auth';
import { installErrorHandlers } from './http/error-handler';
import { installValidators, SCHEMA_CONTROLLER } from './http/validation';
import { installJsonParser } from './http/json-body';
import { installRateLimits } from './http/rate-limit';
import { CLOSING_KEEP_ALIVE_TIMEOUT_MS, SERVER_LIMIT_OPTIONS } from './http/limits';
import { answerClientError, answerFrameworkError } from './http/protocol-errors';
import { installSecurityHeaders } from './http/security-headers';
import { installTextGuard } from './http/text-guard';
import { registerOpenApi } from './api/openapi/routes';
import { systemRoutes } from './api/system/routes';
import { organizationRoutes } from './api/orgs/routes';
import { memberRoutes } from './api/members/routes';
import { inviteRoutes } from './api/invites/routes';
import { teamRoutes } from './api/teams/routes';
import { ssoRoutes } from './api/sso/routes';
import { domainRoutes } from './api/domains/routes';
import { permissionRoutes } from './api/permissions/routes';
import { userTokenRoutes } from './api/user-tokens/routes';
import { signInRoutes } from './api/sign-in/routes';
import { collectionRoutes } from './api/collections/routes';
import { spaceRoutes } from './api/spaces/routes';
import { storageRoutes } from './api/storage/routes';
import { contentRoutes } from './api/content/routes';
import { linkRoutes } from './api/content/link-routes';
import { searchRoutes } from './api/search/routes';
import { changeRequestRoutes } from './api/change-requests/routes';
import { historyRoutes } from './api/history/routes';
import { pdfRoutes } from './pdf/routes';
import { commentRoutes } from './api/comments/routes';
import { siteRoutes } from './api/sites/routes';
import { openApiSpecRoutes } from './api/openapi-specs/routes';
import { contentImportRoutes } from './api/content-import/routes';
import { templateRoutes } from './api/templates/routes';
import { computedContentRoutes } from './api/computed-content/routes';
import { gitRoutes } from './api/git/routes';
import { translationRoutes } from './api/translations/routes';
import { integrationRoutes } from './api/integrations/routes';
import { integrationInstallationRoutes } from './api/integration-installations/routes';
import { integrationTokenRoutes } from './api/integration-tokens/routes';
import { installPublishedSites } from './published-site/routes';
import { integrationEndpointRoutes } from './api/integration-endpoints/public-routes';
import { integrationEndpointApiRoutes } from './api/integration-endpoints/routes';
import { Metrics } from './observability/metrics';
import { observabilityRoutes } from './observability/routes';
import { installRequestIds, requestIdFor } from './observability/request-id';
import { RequestLogController } from './observability/request-log';
import { requestLogger } from './observability/request-logger';
import { installCors, registerWebApp } from './web-app';

/**
 * Builds the Fastify app over services that already exist (server.ts builds
 * them): cross-cutting HTTP first (validation, errors, auth), then the OpenAPI
 * document (it must see every route), then one register() per API module
 * under /v1. It decorates nothing: modules get what they need from `ctx`.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    // Request lines of reads at debug, of writes at info (no log line per hot read at the default level).
    logController: new RequestLogController(),
    // A request's pino child is made on its first enabled line, not on every request.
    childLoggerFactory: requestLogger,
    // Body size, router, request head and timeout limits (docs/configuration.md "Limits").
    ...SERVER_LIMIT_OPTIONS,
    // Router and HTTP-parser refusals in the API's error shape.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    // request.ip: X-Forwarded-For only from FOLIO_TRUST_PROXY addresses (rate limits count per client address).
    trustProxy: ctx.rateLimits.trustProxy,
    ajv: { customOptions: { removeAdditional: false } },
    // Folio's compilers (http/validation.ts), compiled on first use; Fastify's defaults never load.
    schemaController: SCHEMA_CONTROLLER,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('preClose', async () => {
    app.server.keepAliveTimeout = CLOSING_KEEP_ALIVE_TIMEOUT_MS;
  });
  installRequestIds(app);
  installSecurityHeaders(app);
  installValidators(app);
  installJsonParser(app);
  installTextGuard(app);
  installErrorHandlers(app);
  installCors(app); // before auth, so refusals carry CORS headers too
  installAuth(app, ctx.db, () => ctx.urls.root);
  // After auth: each /v1 route's limit hook is put in front of its auth hook (a throttled address is refused before its token is checked).
  installRateLimits(app, ctx.rateLimits, ctx.urls);
  await registerOpenApi(app, ctx);
  // Published docs sites: HTML outside /v1, no API token (the auth hook covers /v1 only).
  installPublishedSites(app, ctx);
  const metrics = new Metrics(
    ctx.hub,
    () => ctx.sync.connections.size,
    () => ctx.fanout,
  );
  metrics.instrument(app);
  await observabilityRoutes(app, ctx, metrics);
  await registerWebApp(app);
  // Sign-in pages, sessions and the desktop app's device sign-in: outside /v1, each route resolves the cookie itself.
  await app.register(signInRoutes(ctx), { prefix: '/auth' });
  // Integrations' public endpoints: outside /v1, no Folio token (the integration checks its callers).
  await app.register(integrationEndpointRoutes(ctx));
  await app.register(
    async (v1) => {
      await v1.register(systemRoutes(ctx));
      await v1.register(organizationRoutes(ctx));
      await v1.register(memberRoutes(ctx));
      await v1.register(inviteRoutes(ctx));
      await v1.register(teamRoutes(ctx));
      await v1.register(ssoRoutes(ctx));
      await v1.register(domainRoutes(ctx));
      await v1.register(permissionRoutes(ctx));
      await v1.register(userTokenRoutes(ctx));
      await v1.register(collectionRoutes(ctx));
      await v1.register(spaceRoutes(ctx));
      await v1.register(storageRoutes(ctx));
      await v1.register(contentRoutes(ctx));
      await v1.register(linkRoutes(ctx));
      await v1.register(pdfRoutes(ctx));
      await v1.register(commentRoutes(ctx));
      await v1.register(searchRoutes(ctx));
      await v1.register(changeRequestRoutes(ctx));
      await v1.register(historyRoutes(ctx));
      await v1.register(siteRoutes(ctx));
      await v1.register(openApiSpecRoutes(ctx));
      await v1.register(contentImportRoutes(ctx));
      await v1.register(templateRoutes(ctx));
      await v1.register(computedContentRoutes(ctx));
      await v1.register(gitRoutes(ctx));
      await v1.register(translationRoutes(ctx));
      await v1.register(integrationRoutes(ctx));
      await v1.register(integrationInstallationRoutes(ctx));
      await v1.register(integrationEndpointApiRoutes(ctx));
      await v1.register(integrationTokenRoutes(ctx));
    },
    { prefix: '/v1' },
  );
  return app;
}
