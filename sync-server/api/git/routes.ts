import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ExportBody, GitParams, GitSyncStateSchema, ImportBody } from './schemas';
import { gitInfo, removeGitSync, requestGitOperation } from './service';
import { gitSettingsRoutes } from './settings-routes';
import { gitHookRoutes } from './hook-routes';

const Queued = (description: string) => Type.Null({ description });

/** GitBook's "Git" group: import and export a space over Git, its Git sync info, the legacy installation. */
export const gitRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Folio's extensions: the automatic sync's settings, and the webhook a Git host calls on a push.
    await app.register(gitSettingsRoutes(ctx));
    await app.register(gitHookRoutes(ctx));
    app.post(
      '/spaces/:spaceId/git/import',
      {
        schema: {
          operationId: 'importGitRepository',
          tags: ['Git'],
          summary: 'Import a Git repository into a space (queued)',
          params: GitParams,
          body: ImportBody,
          response: { 204: Queued('Operation to import the repository has been queued.') },
        },
      },
      async (req, reply) => {
        await requestGitOperation(ctx, req.principal, req.params.spaceId, 'import', req.body);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/spaces/:spaceId/git/export',
      {
        schema: {
          operationId: 'exportToGitRepository',
          tags: ['Git'],
          summary: 'Export a space to a Git repository (queued)',
          params: GitParams,
          body: ExportBody,
          response: { 204: Queued('Operation to export the space has been queued.') },
        },
      },
      async (req, reply) => {
        await requestGitOperation(ctx, req.principal, req.params.spaceId, 'export', req.body);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/spaces/:spaceId/git/info',
      {
        schema: {
          operationId: 'getSpaceGitInfo',
          tags: ['Git'],
          summary: 'The Git sync of a space',
          params: GitParams,
          response: { 200: GitSyncStateSchema },
        },
      },
      async (req) => gitInfo(ctx, req.principal, req.params.spaceId),
    );
    app.delete(
      '/spaces/:spaceId/git/legacy-installation',
      {
        schema: {
          operationId: 'deleteSpaceGitLegacyInstallation',
          tags: ['Git'],
          summary: "Remove the space's Git sync and its stored credentials (idempotent)",
          params: GitParams,
          response: { 204: Queued('Removed (or there was none).') },
        },
      },
      async (req, reply) => {
        await removeGitSync(ctx, req.principal, req.params.spaceId);
        return reply.status(204).send(null);
      },
    );
  };
