import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { forbidden } from '../../http/errors';
import { clearedSessionCookie, isSameOrigin } from '../../identity/sessions';
import { deleteUserToken } from '../../store/user-tokens';
import { browserSession } from './browser-session';
import { safeNext } from './finish';
import { installFormParser } from './form-body';
import { signInMethods } from './methods';
import { allowAnyOrigin } from './open-cors';

const MethodsSchema = Type.Object({
  sso: Type.Boolean(),
  oidc: Type.Union([Type.Object({ label: Type.String(), startURL: Type.String() }), Type.Null()]),
  email: Type.Boolean(),
  token: Type.Literal(true),
});

/**
 * The web session's own routes, under /auth: which sign-in methods this
 * server offers, and sign-out.
 */
export const sessionRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    installFormParser(app);
    allowAnyOrigin(app, '/methods', 'GET');

    app.get(
      '/methods',
      { config: { public: true }, schema: { hide: true, response: { 200: MethodsSchema } } },
      async (_req, reply) => {
        // The configuration can change with a restart and providers at any time: never cached for long.
        reply.header('cache-control', 'no-cache');
        return signInMethods(ctx);
      },
    );

    /**
     * Ends the browser's session: its row is deleted (its sockets close, its
     * cookie stops working everywhere) and the cookie cleared; 204, or a 303
     * to `next` when a page's form posted it. Only this server's pages may
     * sign a browser out (another site could otherwise log people out at will).
     */
    app.post(
      '/sign-out',
      // No body schema: the origin check comes first, and any body but a page's `next` is ignored.
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        if (!isSameOrigin(req.headers, ctx.urls.root, false))
          throw forbidden('Cross-site request refused: sign-out must come from this server’s own pages');
        const session = await browserSession(ctx, req);
        // Only a sign-in's own row: an API token someone set as the cookie by hand is theirs to revoke elsewhere.
        if (session?.kind === 'session') await deleteUserToken(ctx.db, session.principal.userId, session.tokenId);
        reply.header('set-cookie', clearedSessionCookie(ctx.urls.root)).header('cache-control', 'no-store');
        const next = (req.body as { next?: unknown } | null | undefined)?.next;
        return next === undefined ? reply.code(204).send() : reply.redirect(safeNext(next), 303);
      },
    );
  };
