import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { UserSchema } from '../../http/schemas';
import { presentUser, selfViewer } from './present-user';

declare const FOLIO_VERSION: string | undefined;
const VERSION = typeof FOLIO_VERSION === 'string' ? FOLIO_VERSION : '0.1.0';
const BUILD = new Date().toISOString();

/** getApiInformation and getAuthenticatedUser. */
export const systemRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { public: true },
        schema: {
          operationId: 'getApiInformation',
          tags: ['System and users'],
          summary: 'Version and build of this server',
          response: { 200: Type.Object({ version: Type.String(), build: Type.String() }) },
        },
      },
      async () => ({ version: VERSION, build: BUILD }),
    );

    app.get(
      '/user',
      {
        schema: {
          operationId: 'getAuthenticatedUser',
          tags: ['System and users'],
          summary: 'The user the token belongs to',
          response: { 200: UserSchema },
        },
      },
      async (request) =>
        presentUser(ctx, selfViewer(request.principal.userId), {
          id: request.principal.userId,
          display_name: request.principal.displayName,
          email: request.principal.email,
          photo_url: request.principal.photoUrl,
        }),
    );
  };
