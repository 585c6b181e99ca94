import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import {
  AddSiteSpaceBody,
  ListSiteSpacesQuery,
  SiteParams,
  SiteSpaceMoveBody,
  SiteSpaceParams,
  SiteSpaceSchema,
  UpdateSiteSpaceBody,
} from './schemas';
import * as siteSpaces from './site-spaces';

const tags = ['Sites'];

/** Site spaces: the spaces a site publishes. */
export const siteSpaceRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites/:siteId/site-spaces',
      {
        schema: {
          operationId: 'listSiteSpaces',
          tags,
          params: SiteParams,
          querystring: Type.Object({ ...PagingQuery, ...ListSiteSpacesQuery.properties }),
          response: { 200: ListOf(SiteSpaceSchema) },
        },
      },
      async (req) =>
        siteSpaces.listSiteSpaces(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.query,
          pageRequest(req.query),
        ),
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/site-spaces',
      {
        schema: {
          operationId: 'addSpaceToSite',
          tags,
          params: SiteParams,
          body: AddSiteSpaceBody,
          response: { 201: SiteSpaceSchema },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(
            await siteSpaces.addSiteSpace(ctx, req.principal, req.params.organizationId, req.params.siteId, req.body),
          ),
    );

    app.patch(
      '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
      {
        schema: {
          operationId: 'updateSiteSpaceById',
          tags,
          params: SiteSpaceParams,
          body: UpdateSiteSpaceBody,
          response: { 200: SiteSpaceSchema },
        },
      },
      async (req) =>
        siteSpaces.updateSiteSpace(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSpaceId,
          req.body,
        ),
    );

    app.delete(
      '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
      { schema: { operationId: 'deleteSiteSpaceById', tags, params: SiteSpaceParams, response: { 204: Type.Null() } } },
      async (req, reply) => {
        await siteSpaces.deleteSiteSpace(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSpaceId,
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move',
      {
        schema: {
          operationId: 'moveSiteSpace',
          tags,
          params: SiteSpaceParams,
          body: SiteSpaceMoveBody,
          response: { 200: SiteSpaceSchema },
        },
      },
      async (req) => {
        const position = req.body?.position;
        return siteSpaces.moveSiteSpace(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSpaceId,
          {
            before: position?.before?.siteSpace,
            after: position?.after?.siteSpace,
          },
        );
      },
    );
  };
