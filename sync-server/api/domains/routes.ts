import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { OrgParams } from '../../http/schemas';
import { AddDomainBody, DomainClaimSchema, DomainParams } from './schemas';
import * as domains from './service';

const tags = ['Organizations'];

/**
 * An organization's domain claims and their proof (Folio extension; GitBook
 * verifies domains outside its public API). A domain acts for the
 * organization (SSO routing, SAML sign-in, joining by email domain, SSO-only
 * members, site hostnames) only once verified.
 */
export const domainRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/domains',
      {
        schema: {
          operationId: 'listOrganizationDomains',
          tags,
          summary:
            "Folio extension: the organization's domain claims, verified or pending, with their DNS record (admins)",
          params: OrgParams,
          response: { 200: Type.Object({ items: Type.Array(DomainClaimSchema), count: Type.Number() }) },
        },
      },
      async (req) => domains.listDomains(ctx, req.principal, req.params.organizationId),
    );

    app.post(
      '/orgs/:organizationId/domains',
      {
        schema: {
          operationId: 'addOrganizationDomain',
          tags,
          summary: 'Folio extension: claim a domain (pending until its TXT record is verified) (admins)',
          params: OrgParams,
          body: AddDomainBody,
          response: { 201: DomainClaimSchema },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await domains.addDomain(ctx, req.principal, req.params.organizationId, req.body.domain)),
    );

    app.post(
      '/orgs/:organizationId/domains/:domain/verify',
      {
        schema: {
          operationId: 'verifyOrganizationDomain',
          tags,
          summary:
            "Folio extension: look up the claim's DNS TXT record and verify the domain when it is there (admins)",
          params: DomainParams,
          response: { 200: DomainClaimSchema },
        },
      },
      async (req) => domains.verifyDomain(ctx, req.principal, req.params.organizationId, req.params.domain),
    );

    app.post(
      '/orgs/:organizationId/domains/:domain/approve',
      {
        schema: {
          operationId: 'approveOrganizationDomain',
          tags,
          summary: 'Folio extension: verify a domain for the organization without DNS (the instance admin only)',
          params: DomainParams,
          response: { 200: DomainClaimSchema },
        },
      },
      async (req) => domains.approveDomain(ctx, req.principal, req.params.organizationId, req.params.domain),
    );

    app.delete(
      '/orgs/:organizationId/domains/:domain',
      {
        schema: {
          operationId: 'removeOrganizationDomain',
          tags,
          summary: 'Folio extension: drop a domain claim, and the domain from emailDomains (admins)',
          params: DomainParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await domains.removeDomain(ctx, req.principal, req.params.organizationId, req.params.domain);
        return reply.status(204).send(null);
      },
    );
  };
