import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { adaptiveRoutes } from './adaptive-routes';
import { customizationRoutes } from './customization-routes';
import { publishingRoutes } from './publishing-routes';
import { CreateSiteBody, ListSitesQuery, SiteParams, SiteSchema, UpdateSiteBody } from './schemas';
import * as sites from './service';
import { structureRoutes } from './structure-routes';

const tags = ['Sites'];

/** Docs sites: the site resource here; publishing, adaptive content and the structure in their own route files. */
export const siteRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites',
      {
        schema: {
          operationId: 'listSites',
          tags,
          params: OrgParams,
          querystring: Type.Object({ ...PagingQuery, ...ListSitesQuery.properties }),
          response: { 200: ListOf(SiteSchema) },
        },
      },
      async (req) => sites.listSites(ctx, req.principal, req.params.organizationId, req.query, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/sites',
      {
        schema: {
          operationId: 'createSite',
          tags,
          params: OrgParams,
          body: CreateSiteBody,
          response: { 201: SiteSchema },
        },
      },
      async (req, reply) => {
        const created = await sites.createSite(ctx, req.principal, req.params.organizationId, req.body ?? {});
        return reply.status(201).header('location', created.urls.location).send(created);
      },
    );

    app.get(
      '/orgs/:organizationId/sites/:siteId',
      { schema: { operationId: 'getSiteById', tags, params: SiteParams, response: { 200: SiteSchema } } },
      async (req) => sites.siteObjectFor(ctx, req.principal, req.params),
    );

    app.patch(
      '/orgs/:organizationId/sites/:siteId',
      {
        schema: {
          operationId: 'updateSiteById',
          tags,
          params: SiteParams,
          body: UpdateSiteBody,
          response: { 200: SiteSchema },
        },
      },
      async (req) => sites.updateSite(ctx, req.principal, req.params, req.body),
    );

    app.delete(
      '/orgs/:organizationId/sites/:siteId',
      { schema: { operationId: 'deleteSiteById', tags, params: SiteParams, response: { 204: Type.Null() } } },
      async (req, reply) => {
        await sites.deleteSite(ctx, req.principal, req.params);
        return reply.status(204).send(null);
      },
    );

    await app.register(publishingRoutes(ctx));
    await app.register(adaptiveRoutes(ctx));
    await app.register(structureRoutes(ctx));
    await app.register(customizationRoutes(ctx));
  };
