import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { CreateOrganizationBody, OrganizationSchema, UpdateOrganizationBody } from './schemas';
import * as orgs from './service';

const tags = ['Organizations'];

export const organizationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs',
      {
        schema: {
          operationId: 'listOrganizationsForAuthenticatedUser',
          tags,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(OrganizationSchema) },
        },
      },
      async (req) => orgs.listOrganizations(ctx, req.principal, pageRequest(req.query)),
    );

    app.post(
      '/orgs',
      {
        schema: {
          operationId: 'createOrganization',
          tags,
          summary: 'Create an organization; the caller becomes its admin',
          querystring: Type.Object({
            withDefaultSite: Type.Optional(Type.Boolean()),
            openapiUrl: Type.Optional(Type.String({ maxLength: 2048 })),
          }),
          body: CreateOrganizationBody,
          response: { 201: OrganizationSchema },
        },
      },
      async (req, reply) => {
        const org = await orgs.createOrganization(ctx, req.principal, req.body);
        return reply.status(201).header('location', org.urls.location).send(org);
      },
    );

    app.get(
      '/orgs/:organizationId',
      {
        schema: { operationId: 'getOrganizationById', tags, params: OrgParams, response: { 200: OrganizationSchema } },
      },
      async (req) => orgs.getOrganization(ctx, req.principal, req.params.organizationId),
    );

    app.patch(
      '/orgs/:organizationId',
      {
        schema: {
          operationId: 'updateOrganizationById',
          tags,
          params: OrgParams,
          body: UpdateOrganizationBody,
          response: { 200: OrganizationSchema },
        },
      },
      async (req) => orgs.updateOrganization(ctx, req.principal, req.params.organizationId, req.body),
    );

    app.get(
      '/email-domains/:emailDomain/orgs',
      {
        schema: {
          operationId: 'getOrganizationsForEmailDomain',
          tags,
          params: Type.Object({ emailDomain: Type.String({ minLength: 3, maxLength: 253 }) }),
          response: { 200: Type.Object({ organizations: Type.Array(OrganizationSchema) }) },
        },
      },
      async (req) => orgs.organizationsForEmailDomain(ctx, req.principal, req.params.emailDomain),
    );
  };
