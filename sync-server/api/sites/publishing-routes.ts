import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { requireSite, requireSiteRole } from './access';
import { publishedSite } from './published';
import { ShareKeyQuery, SiteParams, SiteSchema } from './schemas';
import * as sites from './service';

const tags = ['Sites'];
const Loose = Type.Object({}, { additionalProperties: true });
const PublishedSiteSchema = Type.Object({
  object: Type.Literal('published-content-site'),
  site: SiteSchema,
  structure: Type.Object({ type: Type.String(), structure: Type.Array(Type.Unknown()) }),
  customizations: Type.Object({ site: Loose, siteSpaces: Loose }),
  scripts: Type.Array(Type.Unknown()),
});
const PublishingAuthSchema = Type.Object({
  object: Type.Literal('publishing-auth'),
  backend: Type.Literal('custom'),
  privateKey: Type.String(),
});

/** Publishing a site, its published profile, and the key that signs visitor tokens. */
export const publishingRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/orgs/:organizationId/sites/:siteId/publish',
      { schema: { operationId: 'publishSite', tags, params: SiteParams, response: { 200: SiteSchema } } },
      async (req) => sites.setPublished(ctx, req.principal, req.params.organizationId, req.params.siteId, true),
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/unpublish',
      { schema: { operationId: 'unpublishSite', tags, params: SiteParams, response: { 200: SiteSchema } } },
      async (req) => sites.setPublished(ctx, req.principal, req.params.organizationId, req.params.siteId, false),
    );

    app.get(
      '/orgs/:organizationId/sites/:siteId/published',
      {
        schema: {
          operationId: 'getPublishedContentSite',
          tags,
          params: SiteParams,
          querystring: Type.Object(ShareKeyQuery),
          response: { 200: PublishedSiteSchema },
        },
      },
      async (req) =>
        publishedSite(ctx, req.principal, req.params.organizationId, req.params.siteId, req.query.shareKey),
    );

    app.get(
      '/orgs/:organizationId/sites/:siteId/publishing/auth',
      {
        schema: {
          operationId: 'getSitePublishingAuthById',
          tags,
          params: SiteParams,
          response: { 200: PublishingAuthSchema },
        },
      },
      async (req) => {
        const { site, role } = await requireSite(ctx, req.principal, req.params.organizationId, req.params.siteId);
        requireSiteRole(role, 'admin', 'read the visitor signing key of this site');
        return { object: 'publishing-auth' as const, backend: 'custom' as const, privateKey: site.visitor_key };
      },
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
      {
        schema: {
          operationId: 'regenerateSitePublishingAuthById',
          tags,
          params: SiteParams,
          response: { 200: PublishingAuthSchema },
        },
      },
      async (req) => {
        const { role } = await requireSite(ctx, req.principal, req.params.organizationId, req.params.siteId);
        requireSiteRole(role, 'admin', 'regenerate the visitor signing key of this site');
        const privateKey = sites.newSecret();
        // Every visitor token signed with the old key stops working at once.
        await ctx.db.query('UPDATE sites SET visitor_key = $2, updated_at = $3 WHERE id = $1', [
          req.params.siteId,
          privateKey,
          ctx.clock.now(),
        ]);
        return { object: 'publishing-auth' as const, backend: 'custom' as const, privateKey };
      },
    );
  };
