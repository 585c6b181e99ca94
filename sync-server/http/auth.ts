import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Queryable } from '../store/db';
import { bearerToken, knownPrincipal, principalForToken, type Principal } from '../identity/principal';
import { isSameOrigin, sessionTokenFromCookies } from '../identity/sessions';
import { scopeRefusal } from '../identity/integration-scopes';
import { forbidden, unauthorized } from './errors';
import { prependRouteHook } from './route-hooks';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every non-public route. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a token (API info, the OpenAPI document). */
    public?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An onRequest hook (it runs before body parsing and validation, so an
 * unauthenticated caller learns nothing about the schemas): every /v1 route
 * not marked `config.public` needs a valid bearer token or the web app's
 * session cookie, else 401. A cookie is sent by the browser on its own, so a
 * request authenticated by one must come from this server's own pages (403
 * otherwise): another site cannot make a signed-in browser change anything.
 *
 * The hook is attached to each route that needs it when the route is
 * registered (onRoute), after the app-wide hooks (CORS, rate limits), rather
 * than run for every request: the check of which routes are protected is
 * made once per route, and public routes, non-/v1 paths and unknown routes
 * (the 404 handler) never call it. A callback hook: a known token costs no
 * async frame.
 */
export function installAuth(app: FastifyInstance, db: Queryable, publicUrl: () => string): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  /**
   * A principal for this route, or the error refusing it: an integration or installation token
   * must be live (the cache may hold it a little past its expiry) and hold a scope the route's
   * operation needs (identity/integration-scopes.ts; deny by default). Humans pass unchanged.
   */
  const admit = (principal: Principal, operationId: string | undefined): Error | undefined => {
    const integration = principal.integration;
    if (!integration) return undefined;
    if (integration.expiresAt <= Date.now()) return unauthorized('This integration token has expired');
    const refusal = scopeRefusal(operationId, {
      scopes: integration.scopes,
      installation: integration.installationId !== undefined,
    });
    return refusal === undefined ? undefined : forbidden(refusal);
  };
  const authenticate =
    (operationId: string | undefined): onRequestHookHandler =>
    (request, _reply, done) => {
      let token = bearerToken(request.headers.authorization);
      if (!token) {
        token = sessionTokenFromCookies(request.headers.cookie);
        if (!token) return done(unauthorized());
        if (!isSameOrigin(request.headers, publicUrl(), SAFE_METHODS.has(request.method)))
          return done(
            forbidden(
              'Cross-site request refused: a request signed in with the session cookie must come from this server',
            ),
          );
      }
      // A token this process knows: no promise (the hot path of every authenticated request).
      const known = knownPrincipal(db, token);
      if (known) {
        request.principal = known;
        return known.integration ? done(admit(known, operationId)) : done();
      }
      principalForToken(db, token).then((principal) => {
        if (!principal) return done(unauthorized('Invalid API token'));
        request.principal = principal;
        done(admit(principal, operationId));
      }, done);
    };
  app.addHook('onRoute', (route) => {
    // Only the /v1 API needs a token.
    if (route.config?.public || !route.url.startsWith('/v1')) return;
    prependRouteHook(route, 'onRequest', authenticate(route.schema?.operationId as string | undefined));
  });
}
