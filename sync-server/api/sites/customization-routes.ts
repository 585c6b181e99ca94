import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { getCustomization, updateCustomization } from './customization';
import { SiteParams } from './schemas';

const tags = ['Sites'];
/** GitBook's SiteCustomizationSettings is large and open-ended; the service checks the fields Folio renders. */
const Settings = Type.Object({}, { additionalProperties: true });

/** A site's customization (primary color, title, logo, favicon, font, header links...). */
export const customizationRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites/:siteId/customization',
      {
        schema: { operationId: 'getSiteCustomizationById', tags, params: SiteParams, response: { 200: Settings } },
      },
      async (req) => getCustomization(ctx, req.principal, req.params),
    );

    app.put(
      '/orgs/:organizationId/sites/:siteId/customization',
      {
        schema: {
          operationId: 'updateSiteCustomizationById',
          tags,
          params: SiteParams,
          body: Settings,
          response: { 200: Settings },
        },
      },
      async (req) => updateCustomization(ctx, req.principal, req.params, req.body as Record<string, unknown>),
    );
  };
