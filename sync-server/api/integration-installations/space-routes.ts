import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import * as content from './content-installations';
import {
  ExtendedOnlyQuery,
  InstallationParams,
  InstallOnSpaceBody,
  IntegrationParams,
  ListContentQuery,
  ListIntegrationContentQuery,
  SearchQuery,
  SpaceInstallationParams,
  SpaceInstallationSchema,
  UpdateContentInstallationBody,
} from './schemas';
import { SPACE_ACCESS } from './spaces';
import { listSpaceIntegrations } from './installed-integrations';
import { IntegrationSchema } from '../integrations/schemas';
import { SpaceParams } from '../spaces/schemas';

const tags = ['Integrations'];
const installationPath = '/integrations/:integrationName/installations/:installationId';

/** GitBook's space installations of an integration (`extended`: Space objects instead of ids). */
export const spaceInstallationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      `${installationPath}/spaces`,
      {
        schema: {
          operationId: 'listIntegrationInstallationSpaces',
          tags,
          summary: 'The spaces an installation is on (all of them with space_selection "all")',
          params: InstallationParams,
          querystring: ListContentQuery,
          response: { 200: ListOf(SpaceInstallationSchema) },
        },
      },
      async (req) =>
        content.listOfInstallation(
          ctx,
          req.principal,
          SPACE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId },
          pageRequest(req.query),
          req.query.extended ?? false,
        ),
    );

    app.post(
      `${installationPath}/spaces`,
      {
        schema: {
          operationId: 'installIntegrationOnSpace',
          tags,
          summary: "Install an integration on a space of the installation's organization (the space's admins)",
          params: InstallationParams,
          querystring: ExtendedOnlyQuery,
          body: InstallOnSpaceBody,
          response: { 201: SpaceInstallationSchema },
        },
      },
      async (req, reply) => {
        const installed = await content.installOn(
          ctx,
          req.principal,
          SPACE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.body.space },
          req.query.extended ?? false,
        );
        return reply.status(201).header('location', installed.urls.location).send(installed);
      },
    );

    app.get(
      `${installationPath}/spaces/:spaceId`,
      {
        schema: {
          operationId: 'getIntegrationSpaceInstallation',
          tags,
          summary: 'The installation of an integration on a space',
          params: SpaceInstallationParams,
          querystring: ExtendedOnlyQuery,
          response: { 200: SpaceInstallationSchema },
        },
      },
      async (req) =>
        content.getOn(
          ctx,
          req.principal,
          SPACE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.params.spaceId },
          req.query.extended ?? false,
        ),
    );

    app.patch(
      `${installationPath}/spaces/:spaceId`,
      {
        schema: {
          operationId: 'updateIntegrationSpaceInstallation',
          tags,
          summary:
            "Change a space installation: its configuration (replaced; checked against the integration's space configuration) and external ids",
          params: SpaceInstallationParams,
          querystring: ExtendedOnlyQuery,
          body: UpdateContentInstallationBody,
          response: { 200: SpaceInstallationSchema },
        },
      },
      async (req) =>
        content.updateOn(
          ctx,
          req.principal,
          SPACE_ACCESS,
          { name: req.params.integrationName, installationId: req.params.installationId, targetId: req.params.spaceId },
          req.body,
          req.query.extended ?? false,
        ),
    );

    app.delete(
      `${installationPath}/spaces/:spaceId`,
      {
        schema: {
          operationId: 'uninstallIntegrationFromSpace',
          tags,
          summary: 'Uninstall an integration from a space (205; 204 when it was not installed there)',
          params: SpaceInstallationParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await content.uninstallFrom(ctx, req.principal, SPACE_ACCESS, {
          name: req.params.integrationName,
          installationId: req.params.installationId,
          targetId: req.params.spaceId,
        });
        return reply.status(outcome === 'deleted' ? 205 : 204).send(null);
      },
    );

    app.get(
      '/integrations/:integrationName/spaces',
      {
        schema: {
          operationId: 'listIntegrationSpaceInstallations',
          tags,
          summary:
            "The spaces an integration is installed on, in every organization (for the admins of the integration's organization)",
          params: IntegrationParams,
          querystring: ListIntegrationContentQuery,
          response: { 200: ListOf(SpaceInstallationSchema) },
        },
      },
      async (req) =>
        content.listOfIntegration(
          ctx,
          req.principal,
          SPACE_ACCESS,
          req.params.integrationName,
          { externalId: req.query.externalId, extended: req.query.extended ?? false },
          pageRequest(req.query),
        ),
    );

    app.get(
      '/spaces/:spaceId/integrations',
      {
        schema: {
          operationId: 'listSpaceIntegrations',
          tags,
          summary: 'The integrations installed on a space (for who sees the space)',
          params: SpaceParams,
          querystring: SearchQuery,
          response: { 200: ListOf(IntegrationSchema) },
        },
      },
      async (req) => listSpaceIntegrations(ctx, req.principal, req.params.spaceId, req.query.search),
    );
  };
