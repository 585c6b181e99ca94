import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { bearerToken } from '../../identity/principal';
import { sessionTokenFromCookies } from '../../identity/sessions';
import { TokenParams, UserTokenSchema } from './schemas';
import { listUserTokens, revokeUserToken } from './service';

const tags = ['System and users'];

/**
 * The caller's own API tokens, web sessions and desktop device tokens: a
 * Folio extension (GitBook has no such operation), for the account screen's
 * "revoke" button. Issuing them stays with sign-in (api/sign-in/) and the CLI.
 */
export const userTokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/user/tokens',
      {
        schema: {
          operationId: 'listUserTokens',
          tags,
          summary: "Folio extension: the caller's API tokens, web sessions and desktop devices (never their secrets)",
          response: { 200: Type.Object({ items: Type.Array(UserTokenSchema), count: Type.Number() }) },
        },
      },
      // The credential of this request, found as the auth hook finds it: the bearer token first, else the session cookie.
      async (req) =>
        listUserTokens(
          ctx,
          req.principal.userId,
          bearerToken(req.headers.authorization) ?? sessionTokenFromCookies(req.headers.cookie),
        ),
    );

    app.delete(
      '/user/tokens/:tokenId',
      {
        schema: {
          operationId: 'revokeUserToken',
          tags,
          summary:
            "Folio extension: revoke one of the caller's tokens (its open sockets close); 204 also for any other id, left alone",
          params: TokenParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await revokeUserToken(ctx, req.principal.userId, req.params.tokenId);
        return reply.status(204).send(null);
      },
    );
  };
