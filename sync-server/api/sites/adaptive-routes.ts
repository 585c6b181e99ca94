import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { getAdaptiveSchema, listTemplateConditions, putAdaptiveSchema } from './adaptive';
import { SiteParams } from './schemas';

const tags = ['Sites'];
const AdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: Type.Object({}, { additionalProperties: true }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** The visitor schema of adaptive content, and the conditions it suggests. */
export const adaptiveRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites/:siteId/adaptive-schema',
      { schema: { operationId: 'getSiteAdaptiveSchema', tags, params: SiteParams, response: { 200: AdaptiveSchema } } },
      async (req) => getAdaptiveSchema(ctx, req.principal, req.params),
    );

    app.put(
      '/orgs/:organizationId/sites/:siteId/adaptive-schema',
      {
        schema: {
          operationId: 'updateSiteAdaptiveSchema',
          tags,
          params: SiteParams,
          // The schema itself is checked by the service (draft-07 meta-schema + GitBook's shape), for precise messages.
          body: Type.Object(
            { jsonSchema: Type.Object({}, { additionalProperties: true }) },
            { additionalProperties: false },
          ),
          response: { 200: AdaptiveSchema },
        },
      },
      async (req) => putAdaptiveSchema(ctx, req.principal, req.params, req.body.jsonSchema),
    );

    app.get(
      '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
      {
        schema: {
          operationId: 'listSiteAdaptiveTemplateConditions',
          tags,
          params: SiteParams,
          response: {
            200: Type.Object({
              items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })),
            }),
          },
        },
      },
      async (req) => listTemplateConditions(ctx, req.principal, req.params),
    );
  };
