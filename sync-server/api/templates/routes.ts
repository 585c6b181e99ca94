import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { SpaceContentParams } from '../content/schemas';
import { ApplyTemplateBody, TemplateList } from './schemas';
import { applyTemplate, listTemplates } from './service';

/** Space templates: GitBook's applyTemplateToSpace, and the catalogue it draws from (a Folio extension). */
export const templateRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/templates',
      {
        // The built-in catalogue is the same for everyone and says nothing about anyone's content.
        config: { public: true },
        schema: {
          operationId: 'listTemplates',
          tags: ['Templates'],
          summary: 'List the built-in space templates (Folio extension)',
          response: { 200: TemplateList },
        },
      },
      async () => listTemplates(),
    );

    app.post(
      '/spaces/:spaceId/content/template',
      {
        schema: {
          operationId: 'applyTemplateToSpace',
          tags: ['Space content'],
          summary: 'Apply a content template to populate a space with initial pages',
          params: SpaceContentParams,
          body: ApplyTemplateBody,
          response: { 201: Type.Null({ description: 'Template applied to space.' }) },
        },
      },
      async (req, reply) => {
        await applyTemplate(ctx, req.principal, req.params.spaceId, req.body);
        // GitBook answers 201 with no body (not a JSON `null`): nothing is given to serialize.
        return reply.status(201).send(undefined as unknown as null);
      },
    );
  };
