import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import {
  AssetParams,
  DevelopmentModeBody,
  EventParams,
  EventSchema,
  EventWithTraceSchema,
  IntegrationParams,
  IntegrationSchema,
  ListQuery,
  PUBLISH_BODY_LIMIT,
  PublishBody,
} from './schemas';
import * as integrations from './service';

const tags = ['Integrations'];

/** The list filters of the query, without paging. */
const filtersOf = ({ page: _page, limit: _limit, ...filters }: Static<typeof ListQuery>) => filters;

/**
 * GitBook's "Integrations" group (the integrations themselves: publish, read, list, unpublish,
 * development mode, events) under /v1/integrations, the organization's list, and the Folio route
 * that serves an integration's images without a token. Installations are api/integration-installations/.
 */
export const integrationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/integrations',
      {
        schema: {
          operationId: 'listIntegrations',
          tags,
          summary: 'List the public integrations',
          querystring: ListQuery,
          response: { 200: ListOf(IntegrationSchema) },
        },
      },
      async (req) => integrations.listIntegrations(ctx, req.principal, filtersOf(req.query), pageRequest(req.query)),
    );

    app.get(
      '/orgs/:organizationId/integrations',
      {
        schema: {
          operationId: 'listOrganizationIntegrations',
          tags,
          summary: "List the public integrations and the organization's own (private and unlisted ones included)",
          params: OrgParams,
          querystring: ListQuery,
          response: { 200: ListOf(IntegrationSchema) },
        },
      },
      async (req) =>
        integrations.listOrganizationIntegrations(
          ctx,
          req.principal,
          req.params.organizationId,
          filtersOf(req.query),
          pageRequest(req.query),
        ),
    );

    app.get(
      '/integrations/:integrationName',
      {
        schema: {
          operationId: 'getIntegrationByName',
          tags,
          summary: 'An integration (a private one only for its organization)',
          params: IntegrationParams,
          response: { 200: IntegrationSchema },
        },
      },
      async (req) => integrations.getIntegration(ctx, req.principal, req.params.integrationName),
    );

    app.post(
      '/integrations/:integrationName',
      {
        bodyLimit: PUBLISH_BODY_LIMIT,
        schema: {
          operationId: 'publishIntegration',
          tags,
          summary: "Publish an integration, or its next version (the publishing organization's admins)",
          params: IntegrationParams,
          body: PublishBody,
          response: { 200: IntegrationSchema },
        },
      },
      async (req) => integrations.publishIntegration(ctx, req.principal, req.params.integrationName, req.body),
    );

    app.delete(
      '/integrations/:integrationName',
      {
        schema: {
          operationId: 'unpublishIntegration',
          tags,
          summary: 'Unpublish an integration, its installations and events (205; 204 when it did not exist)',
          params: IntegrationParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await integrations.unpublishIntegration(ctx, req.principal, req.params.integrationName);
        return reply.status(outcome === 'deleted' ? 205 : 204).send(null);
      },
    );

    app.put(
      '/integrations/:integrationName/dev',
      {
        schema: {
          operationId: 'setIntegrationDevelopmentMode',
          tags,
          summary: "Turn development mode on: the integration's events go to the tunnel URL",
          params: IntegrationParams,
          body: DevelopmentModeBody,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await integrations.setDevelopmentModeOn(ctx, req.principal, req.params.integrationName, req.body);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/integrations/:integrationName/dev',
      {
        schema: {
          operationId: 'disableIntegrationDevelopmentMode',
          tags,
          summary: 'Turn development mode off (205; 204 when the integration did not exist)',
          params: IntegrationParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const outcome = await integrations.disableDevelopmentMode(ctx, req.principal, req.params.integrationName);
        return reply.status(outcome === 'disabled' ? 205 : 204).send(null);
      },
    );

    app.get(
      '/integrations/:integrationName/events',
      {
        schema: {
          operationId: 'listIntegrationEvents',
          tags,
          summary: 'The events delivered to an integration, newest first',
          params: IntegrationParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(EventSchema) },
        },
      },
      async (req) => integrations.listEvents(ctx, req.principal, req.params.integrationName, pageRequest(req.query)),
    );

    app.get(
      '/integrations/:integrationName/events/:eventId',
      {
        schema: {
          operationId: 'getIntegrationEvent',
          tags,
          summary: 'An event delivered to an integration, with the log entries of its delivery',
          params: EventParams,
          response: { 200: EventWithTraceSchema },
        },
      },
      async (req) => integrations.getEvent(ctx, req.principal, req.params.integrationName, req.params.eventId),
    );

    app.get(
      '/integrations/:integrationName/assets/:file',
      {
        config: { public: true },
        schema: {
          operationId: 'getIntegrationAsset',
          tags,
          summary:
            "Folio extension: an integration's icon or preview image (urls.icon, previewImages), without a token",
          security: [],
          params: AssetParams,
        },
      },
      async (req, reply) => {
        const asset = await integrations.getAsset(ctx, req.params.integrationName, req.params.file);
        return reply
          .type(asset.contentType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          .header('access-control-allow-origin', '*')
          .send(asset.bytes);
      },
    );
  };
