import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { UserSchema } from '../../http/schemas';
import { findUserVisibleTo } from '../../store/users';
import { presentUser, selfViewer } from './present-user';

declare const FOLIO_VERSION: string | undefined;
const VERSION = typeof FOLIO_VERSION === 'string' ? FOLIO_VERSION : '0.1.0';
const BUILD = new Date().toISOString();

/** getApiInformation, getAuthenticatedUser and getUserById (where every User's `urls.location` points). */
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

    app.get(
      '/users/:userId',
      {
        schema: {
          operationId: 'getUserById',
          tags: ['System and users'],
          summary: 'A user you share an organization with (or yourself)',
          params: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: UserSchema },
        },
      },
      async (request) => {
        const user = await findUserVisibleTo(ctx.db, request.principal.userId, request.params.userId);
        if (!user) throw notFound('User');
        // Emails follow the strictest rule (only your own): the caller's role differs per shared organization.
        return presentUser(ctx, selfViewer(request.principal.userId), user);
      },
    );
  };
