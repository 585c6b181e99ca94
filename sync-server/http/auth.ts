import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../store/db';
import { bearerToken, principalForToken, type Principal } from '../identity/principal';
import { isSameOrigin, sessionTokenFromCookies } from '../identity/sessions';
import { forbidden, unauthorized } from './errors';

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
 * unauthenticated caller learns nothing about the schemas): every route not
 * marked `config.public` needs a valid bearer token or the web app's session
 * cookie, else 401. A cookie is sent by the browser on its own, so a request
 * authenticated by one must come from this server's own pages (403 otherwise):
 * another site cannot make a signed-in browser change anything.
 */
export function installAuth(app: FastifyInstance, db: Queryable, publicUrl: () => string): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    // Only the /v1 API needs a token; unknown routes fall through to the 404 handler.
    if (!request.routeOptions.url?.startsWith('/v1')) return;
    let token = bearerToken(request.headers.authorization);
    if (!token) {
      token = sessionTokenFromCookies(request.headers.cookie);
      if (!token) throw unauthorized();
      if (!isSameOrigin(request.headers, publicUrl(), SAFE_METHODS.has(request.method)))
        throw forbidden(
          'Cross-site request refused: a request signed in with the session cookie must come from this server',
        );
    }
    const principal = await principalForToken(db, token);
    if (!principal) throw unauthorized('Invalid API token');
    request.principal = principal;
  });
}
