import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import * as content from './content-installations';
import {
  ExtendedOnlyQuery,
  InstallationParams,
  InstallOnSiteBody,
  IntegrationParams,
  ListContentQuery,
  ListIntegrationContentQuery,
  SearchQuery,
  SiteInstallationParams,
  SiteInstallationSchema,
  UpdateContentInstallationBody,
} from './schemas';
import { SITE_ACCESS } from './sites';
import { listSiteIntegrations } from './installed-integrations';
import { IntegrationSchema } from '../integrations/schemas';
import { SiteParams } from '../sites/schemas';

const tags = ['Integrations'];
const installationPath = '/integrations/:integrationName/installations/:installationId';

/** GitBook's site installations of an integration (`extended`: Site objects instead of ids). */
export const siteInstallationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      `${installationPath}/sites`,
      {
        schema: {
          operationId: 'listIntegrationInstallationSites',
          tags,
          summary: 'The sites an installation is on (all of them with site_selection "all")',
          params: InstallationParams,
          querystring: ListContentQuery,
          response: { 200: ListOf(SiteInstallationSchema) },
        },
      },
      async (req) =>
        content.listOfInstallation(
          ctx,
          req.principal,
          SITE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId },
          pageRequest(req.query),
          req.query.extended ?? false,
        ),
    );

    app.post(
      `${installationPath}/sites`,
      {
        schema: {
          operationId: 'installIntegrationOnSite',
          tags,
          summary: "Install an integration on a site of the installation's organization (its admins)",
          params: InstallationParams,
          querystring: ExtendedOnlyQuery,
          body: InstallOnSiteBody,
          response: { 201: SiteInstallationSchema },
        },
      },
      async (req, reply) => {
        const installed = await content.installOn(
          ctx,
          req.principal,
          SITE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.body.siteId },
          req.query.extended ?? false,
        );
        return reply.status(201).header('location', installed.urls.location).send(installed);
      },
    );

    app.get(
      `${installationPath}/sites/:siteId`,
      {
        schema: {
          operationId: 'getIntegrationSiteInstallation',
          tags,
          summary: 'The installation of an integration on a site',
          params: SiteInstallationParams,
          querystring: ExtendedOnlyQuery,
          response: { 200: SiteInstallationSchema },
        },
      },
      async (req) =>
        content.getOn(
          ctx,
          req.principal,
          SITE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.params.siteId },
          req.query.extended ?? false,
        ),
    );

    app.patch(
      `${installationPath}/sites/:siteId`,
      {
        schema: {
          operationId: 'updateIntegrationSiteInstallation',
          tags,
          summary:
            "Change a site installation: its configuration (replaced; checked against the integration's site configuration) and external ids",
          params: SiteInstallationParams,
          querystring: ExtendedOnlyQuery,
          body: UpdateContentInstallationBody,
          response: { 200: SiteInstallationSchema },
        },
      },
      async (req) =>
        content.updateOn(
          ctx,
          req.principal,
          SITE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.params.siteId },
          req.body,
          req.query.extended ?? false,
        ),
    );

    app.delete(
      `${installationPath}/sites/:siteId`,
      {
        schema: {
          operationId: 'uninstallIntegrationFromSite',
          tags,
          summary: 'Uninstall an integration from a site (205; 204 when it was not installed there)',
          params: SiteInstallationParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await content.uninstallFrom(ctx, req.principal, SITE_ACCESS, {
          name: req.params.integrationName,
          installationId: req.params.installationId,
          targetId: req.params.siteId,
        });
        return reply.status(outcome === 'deleted' ? 205 : 204).send(null);
      },
    );

    app.get(
      '/integrations/:integrationName/sites',
      {
        schema: {
          operationId: 'listIntegrationSiteInstallations',
          tags,
          summary:
            "The sites an integration is installed on, in every organization (for the admins of the integration's organization)",
          params: IntegrationParams,
          querystring: ListIntegrationContentQuery,
          response: { 200: ListOf(SiteInstallationSchema) },
        },
      },
      async (req) =>
        content.listOfIntegration(
          ctx,
          req.principal,
          SITE_ACCESS,
          req.params.integrationName,
          { externalId: req.query.externalId, extended: req.query.extended ?? false },
          pageRequest(req.query),
        ),
    );

    app.get(
      '/orgs/:organizationId/sites/:siteId/integrations',
      {
        schema: {
          operationId: 'listSiteIntegrations',
          tags,
          summary: 'The integrations installed on a site (for who sees the site)',
          params: SiteParams,
          querystring: SearchQuery,
          response: { 200: ListOf(IntegrationSchema) },
        },
      },
      async (req) =>
        listSiteIntegrations(
          ctx,
          req.principal,
          { organizationId: req.params.organizationId, siteId: req.params.siteId },
          req.query.search,
        ),
    );
  };
