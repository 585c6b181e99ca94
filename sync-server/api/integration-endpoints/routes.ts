import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import {
  IntegrationNameParams,
  RenderBody,
  RenderOutput,
  RenderQuery,
  SpaceIdParams,
  SpaceIntegrationBlocks,
  TaskBody,
} from './schemas';
import * as service from './service';

const tags = ['Integrations'];

/** A first render may be reused by the browser briefly; an interaction's answer never is. */
const cacheControl = (cacheable: boolean) => (cacheable ? 'private, max-age=60' : 'no-store');

/**
 * Integration blocks and tasks under /v1: GitBook's renderIntegrationUIWithPost and
 * renderIntegrationUIWithGet (a `ui_render` event; the ContentKit output), listSpaceIntegrationsBlocks,
 * and queueIntegrationTask (a `task` event, queued). The public endpoints are public-routes.ts.
 */
export const integrationEndpointApiRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/integrations/:integrationName/render',
      {
        schema: {
          operationId: 'renderIntegrationUIWithPost',
          tags,
          summary: "Render an integration's UI (a block): its ContentKit output",
          params: IntegrationNameParams,
          body: RenderBody,
          response: { 200: RenderOutput },
        },
      },
      async (req, reply) => {
        const { output, cacheable } = await service.renderIntegrationUI(
          ctx,
          req.principal,
          req.params.integrationName,
          req.body,
        );
        return reply.header('cache-control', cacheControl(cacheable)).send(output);
      },
    );

    app.get(
      '/integrations/:integrationName/render',
      {
        schema: {
          operationId: 'renderIntegrationUIWithGet',
          tags,
          summary: "Render an integration's UI (a block), the request LZ-string compressed in the query",
          params: IntegrationNameParams,
          querystring: RenderQuery,
          response: { 200: RenderOutput },
        },
      },
      async (req, reply) => {
        const input = await service.decodeRenderRequest(ctx, req.params.integrationName, req.query.request);
        const { output, cacheable } = await service.renderIntegrationUI(
          ctx,
          req.principal,
          req.params.integrationName,
          input,
        );
        return reply.header('cache-control', cacheControl(cacheable)).send(output);
      },
    );

    app.get(
      '/spaces/:spaceId/integration-blocks',
      {
        schema: {
          operationId: 'listSpaceIntegrationsBlocks',
          tags,
          summary: 'The blocks of the integrations installed on the space',
          params: SpaceIdParams,
          response: { 200: SpaceIntegrationBlocks },
        },
      },
      (req) => service.listSpaceIntegrationBlocks(ctx, req.principal, req.params.spaceId),
    );

    app.post(
      '/integrations/:integrationName/tasks',
      {
        schema: {
          operationId: 'queueIntegrationTask',
          tags,
          summary: 'Queue a task of the integration (its own token): a `task` event after `schedule` seconds',
          params: IntegrationNameParams,
          body: TaskBody,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await service.queueIntegrationTask(ctx, req.principal, req.params.integrationName, req.body);
        return reply.status(204).send(null);
      },
    );
  };
