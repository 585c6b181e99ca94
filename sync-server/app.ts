import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context';
import { installAuth } from './http/auth';
import { installErrorHandlers } from './http/errors';
import { installValidators } from './http/validation';
import { installJsonParser } from './http/json-body';
import { registerOpenApi } from './api/openapi/routes';
import { systemRoutes } from './api/system/routes';
import { organizationRoutes } from './api/orgs/routes';
import { memberRoutes } from './api/members/routes';
import { inviteRoutes } from './api/invites/routes';
import { teamRoutes } from './api/teams/routes';
import { collectionRoutes } from './api/collections/routes';
import { spaceRoutes } from './api/spaces/routes';
import { storageRoutes } from './api/storage/routes';
import { contentRoutes } from './api/content/routes';
import { linkRoutes } from './api/content/link-routes';
import { searchRoutes } from './api/search/routes';
import { changeRequestRoutes } from './api/change-requests/routes';
import { Snapshots } from './docs/snapshots';
import { pdfRoutes } from './pdf/routes';
import { commentRoutes } from './api/comments/routes';
import { siteRoutes } from './api/sites/routes';
import { installPublishedSites } from './published-site/routes';
import { Metrics } from './observability/metrics';
import { observabilityRoutes } from './observability/routes';
import { installRequestIds, requestIdFor } from './observability/request-id';
import { Revisions } from './api/content/service';
import { createStorage, type Storage } from './api/storage/storage';
import type { RedisFanout } from './fanout/redis-fanout';
import { installCors, registerWebApp } from './web-app';

declare module 'fastify' {
  interface FastifyInstance {
    /** File bytes and signed URLs (content routes build downloadURLs with it). */
    storage: Storage;
    /** Live edits -> revisions (REST writes call revise() to make one at once). */
    snapshots: Snapshots;
    /** Open sync sockets, for metrics (the sync endpoint is attached after the app is built). */
    socketCount: () => number;
    /** Fan-out to other server processes, when configured (set by server.ts after the app is built). */
    fanout: RedisFanout | undefined;
  }
}

export interface BuildOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | object;
}

/**
 * Builds the Fastify app: cross-cutting HTTP first (validation, errors, auth),
 * then the OpenAPI document (it must see every route), then one register() per
 * API module under /v1.
 */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Request bodies of this API are small JSON documents.
    bodyLimit: 1024 * 1024,
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installRequestIds(app);
  installValidators(app);
  installJsonParser(app);
  installErrorHandlers(app);
  await installCors(app); // before auth, so refusals carry CORS headers too
  installAuth(app, ctx.db);
  await registerOpenApi(app, ctx);
  const storage = await createStorage(ctx);
  app.decorate('storage', storage);
  // Published docs sites: HTML outside /v1, no API token (the auth hook covers /v1 only).
  installPublishedSites(app, ctx, storage);
  const snapshots = new Snapshots(ctx, ctx.config.revisionQuietMs, (err, spaceId) =>
    app.log.error({ err, spaceId }, 'could not make a revision'),
  );
  app.decorate('snapshots', snapshots);
  app.addHook('onClose', () => snapshots.close());
  app.decorate('socketCount', () => 0);
  app.decorate('fanout', undefined as RedisFanout | undefined);
  const metrics = new Metrics(
    ctx.hub,
    () => app.socketCount(),
    () => app.fanout,
  );
  metrics.instrument(app);
  await observabilityRoutes(app, ctx, metrics);
  await registerWebApp(app);
  await app.register(
    async (v1) => {
      await v1.register(systemRoutes(ctx));
      await v1.register(organizationRoutes(ctx));
      await v1.register(memberRoutes(ctx));
      await v1.register(inviteRoutes(ctx));
      await v1.register(teamRoutes(ctx));
      await v1.register(collectionRoutes(ctx));
      await v1.register(spaceRoutes(ctx));
      await v1.register(storageRoutes(ctx, storage));
      const revisions = new Revisions(ctx);
      await v1.register(contentRoutes(ctx, storage, revisions));
      await v1.register(linkRoutes(ctx, revisions));
      await v1.register(pdfRoutes(ctx, storage.signer, revisions));
      await v1.register(commentRoutes(ctx));
      await v1.register(searchRoutes(ctx));
      await v1.register(changeRequestRoutes(ctx, revisions));
      await v1.register(siteRoutes(ctx));
    },
    { prefix: '/v1' },
  );
  return app;
}
