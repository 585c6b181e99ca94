import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { getPublishingAuth, publishedSite, regeneratePublishingAuth, setPublished } from './published';
import { ShareKeyQuery, SiteParams, SiteSchema } from './schemas';

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
      async (req) => setPublished(ctx, req.principal, req.params, true),
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/unpublish',
      { schema: { operationId: 'unpublishSite', tags, params: SiteParams, response: { 200: SiteSchema } } },
      async (req) => setPublished(ctx, req.principal, req.params, false),
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
      async (req) => publishedSite(ctx, req.principal, req.params, req.query.shareKey),
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
      async (req) => getPublishingAuth(ctx, req.principal, req.params),
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
      async (req) => regeneratePublishingAuth(ctx, req.principal, req.params),
    );
  };
