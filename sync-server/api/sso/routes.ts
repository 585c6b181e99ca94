import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import {
  CreateSamlProviderBody,
  OrgParams,
  SamlProviderParams,
  SamlProviderSchema,
  SsoLoginSchema,
  UpdateSamlProviderBody,
} from './schemas';
import * as sso from './service';

const tags = ['SSO'];

/** The spec's SSO group: an organization's SAML identity providers, and the logins its members can start. */
export const ssoRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/saml',
      {
        schema: {
          operationId: 'listSAMLProvidersInOrganizationById',
          tags,
          summary: 'SAML providers of the organization (admins)',
          params: OrgParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(SamlProviderSchema) },
        },
      },
      async (req) => sso.listProviders(ctx, req.principal, req.params.organizationId, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/saml',
      {
        schema: {
          operationId: 'createOrganizationSAMLProvider',
          tags,
          summary: 'Add a SAML provider (admins); with a label only it is pending until completed',
          params: OrgParams,
          body: CreateSamlProviderBody,
          response: { 201: SamlProviderSchema },
        },
      },
      async (req, reply) => {
        const provider = await sso.createProvider(ctx, req.principal, req.params.organizationId, req.body);
        return reply.status(201).header('location', provider.urls.location).send(provider);
      },
    );

    app.get(
      '/orgs/:organizationId/saml/:samlProviderId',
      {
        schema: {
          operationId: 'getOrganizationSAMLProviderById',
          tags,
          params: SamlProviderParams,
          response: { 200: SamlProviderSchema },
        },
      },
      async (req) => sso.getProvider(ctx, req.principal, req.params.organizationId, req.params.samlProviderId),
    );

    app.patch(
      '/orgs/:organizationId/saml/:samlProviderId',
      {
        schema: {
          operationId: 'updateOrganizationSAMLProvider',
          tags,
          summary: 'Change a SAML provider (admins); fields not sent stay as they are',
          params: SamlProviderParams,
          body: UpdateSamlProviderBody,
          response: { 200: SamlProviderSchema },
        },
      },
      async (req) =>
        sso.updateProvider(ctx, req.principal, req.params.organizationId, req.params.samlProviderId, req.body),
    );

    app.delete(
      '/orgs/:organizationId/saml/:samlProviderId',
      {
        schema: {
          operationId: 'deleteOrganizationSAMLProvider',
          tags,
          // The spec answers 204; GitBook's document also lists 205, which no client needs.
          summary: 'Delete a SAML provider (admins): 204, also when there was none',
          params: SamlProviderParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await sso.deleteProvider(ctx, req.principal, req.params.organizationId, req.params.samlProviderId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/sso',
      {
        schema: {
          operationId: 'listSSOProviderLoginsInOrganization',
          tags,
          summary: 'The single sign-on logins members can start (configured SAML providers)',
          params: OrgParams,
          response: { 200: Type.Object({ items: Type.Array(SsoLoginSchema) }) },
        },
      },
      async (req) => sso.listLogins(ctx, req.principal, req.params.organizationId),
    );
  };
