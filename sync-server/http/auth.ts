import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../store/db';
import { bearerToken, principalForToken, type Principal } from '../identity/principal';
import { unauthorized } from './errors';

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

/**
 * An onRequest hook (it runs before body parsing and validation, so an
 * unauthenticated caller learns nothing about the schemas): every route not
 * marked `config.public` needs a valid bearer token, else 401.
 */
export function installAuth(app: FastifyInstance, db: Queryable): void {
  app.decorateRequest('principal', undefined as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    // Only the /v1 API needs a token; unknown routes fall through to the 404 handler.
    if (!request.routeOptions.url?.startsWith('/v1')) return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized();
    const principal = await principalForToken(db, token);
    if (!principal) throw unauthorized('Invalid API token');
    request.principal = principal;
  });
}
