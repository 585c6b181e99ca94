import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { siteInstallationRoutes } from './site-routes';
import { spaceInstallationRoutes } from './space-routes';
import {
  InstallationParams,
  InstallationSchema,
  InstallBody,
  IntegrationName,
  IntegrationParams,
  InstalledIntegrationSchema,
  IntegrationStatusSchema,
  ListInstallationsQuery,
  StatusListQuery,
  UpdateInstallationBody,
} from './schemas';
import * as installations from './service';
import { listOrganizationIntegrationsStatus } from './installed-integrations';
import { getOrganizationIntegrationStatus } from './status';

const tags = ['Integrations'];

/**
 * GitBook's integration installations: in organizations (here), on spaces and on sites
 * (space-routes.ts, site-routes.ts), under /v1/integrations/{integrationName}; and an organization's status of
 * one integration, under /v1/orgs/{organizationId}/integrations.
 */
export const integrationInstallationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/integrations/:integrationName/installations',
      {
        schema: {
          operationId: 'listIntegrationInstallations',
          tags,
          summary:
            "The installations of an integration in every organization (for the admins of the integration's organization)",
          params: IntegrationParams,
          querystring: ListInstallationsQuery,
          response: { 200: ListOf(InstallationSchema) },
        },
      },
      async (req) =>
        installations.listInstallations(
          ctx,
          req.principal,
          req.params.integrationName,
          req.query.externalId,
          pageRequest(req.query),
        ),
    );

    app.post(
      '/integrations/:integrationName/installations',
      {
        schema: {
          operationId: 'installIntegration',
          tags,
          summary:
            'Install an integration in an organization (its admins); `pending` until its required configuration is set',
          params: IntegrationParams,
          body: InstallBody,
          response: { 201: InstallationSchema },
        },
      },
      async (req, reply) => {
        const installation = await installations.installIntegration(
          ctx,
          req.principal,
          req.params.integrationName,
          req.body.organization,
        );
        return reply.status(201).header('location', installation.urls.location).send(installation);
      },
    );

    app.get(
      '/integrations/:integrationName/installations/:installationId',
      {
        schema: {
          operationId: 'getIntegrationInstallationById',
          tags,
          summary: 'An installation of an integration',
          params: InstallationParams,
          response: { 200: InstallationSchema },
        },
      },
      async (req) =>
        installations.getInstallation(ctx, req.principal, req.params.integrationName, req.params.installationId),
    );

    app.patch(
      '/integrations/:integrationName/installations/:installationId',
      {
        schema: {
          operationId: 'updateIntegrationInstallation',
          tags,
          summary:
            "Change an installation: its configuration (replaced; checked against the integration's account configuration), external ids, space and site selections",
          params: InstallationParams,
          body: UpdateInstallationBody,
          response: { 200: InstallationSchema },
        },
      },
      async (req) =>
        installations.updateInstallation(
          ctx,
          req.principal,
          req.params.integrationName,
          req.params.installationId,
          req.body,
        ),
    );

    app.delete(
      '/integrations/:integrationName/installations/:installationId',
      {
        schema: {
          operationId: 'uninstallIntegration',
          tags,
          summary:
            'Uninstall an integration from an organization, and from its spaces and sites (205; 204 when it was not installed)',
          params: InstallationParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await installations.uninstallIntegration(
          ctx,
          req.principal,
          req.params.integrationName,
          req.params.installationId,
        );
        return reply.status(outcome === 'deleted' ? 205 : 204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/integrations/:integrationName/installation_status',
      {
        schema: {
          operationId: 'getOrganizationIntegrationStatus',
          tags,
          summary: 'The status of an integration installed in the organization (404 when it is not installed)',
          params: Type.Object({ ...OrgParams.properties, integrationName: IntegrationName }),
          response: { 200: IntegrationStatusSchema },
        },
      },
      async (req) =>
        getOrganizationIntegrationStatus(ctx, req.principal, req.params.organizationId, req.params.integrationName),
    );

    app.get(
      '/orgs/:organizationId/integrations/installations-status',
      {
        schema: {
          operationId: 'listOrganizationIntegrationsStatus',
          tags,
          summary:
            'The integrations installed in the organization, or on its spaces or sites (`target`; one with `space` or `site`), with their statuses',
          params: OrgParams,
          querystring: StatusListQuery,
          response: { 200: ListOf(InstalledIntegrationSchema) },
        },
      },
      async (req) =>
        listOrganizationIntegrationsStatus(
          ctx,
          req.principal,
          req.params.organizationId,
          { target: req.query.target, space: req.query.space, site: req.query.site },
          pageRequest(req.query),
        ),
    );

    await app.register(spaceInstallationRoutes(ctx));
    await app.register(siteInstallationRoutes(ctx));
  };
