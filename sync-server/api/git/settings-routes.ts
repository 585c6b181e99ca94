import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { GitParams } from './schemas';
import { GitSettingsPatch, GitSettingsSchema } from './settings-schemas';
import { gitSettings, updateGitSettings } from './settings';

/** The settings of the automatic Git sync (Folio extension): export on merge, import on push, polling. */
export const gitSettingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/spaces/:spaceId/git/settings',
      {
        schema: {
          operationId: 'getSpaceGitSettings',
          tags: ['Git'],
          summary: "The automatic sync settings of a space's Git sync (Folio extension)",
          params: GitParams,
          response: { 200: GitSettingsSchema },
        },
      },
      async (req) => gitSettings(ctx, req.principal, req.params.spaceId),
    );
    app.patch(
      '/spaces/:spaceId/git/settings',
      {
        schema: {
          operationId: 'updateSpaceGitSettings',
          tags: ['Git'],
          summary: "Change the automatic sync settings of a space's Git sync (Folio extension)",
          params: GitParams,
          body: GitSettingsPatch,
          response: { 200: GitSettingsSchema },
        },
      },
      async (req) => updateGitSettings(ctx, req.principal, req.params.spaceId, req.body),
    );
  };
