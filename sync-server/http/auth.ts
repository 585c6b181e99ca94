import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../store/db';
import { hashToken } from './ids';
import { cachedRead } from '../store/read-cache';
import { unauthorized } from './errors';

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  displayName: string;
  email: string | null;
  photoUrl: string | null;
  instanceAdmin: boolean;
}

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
 * Resolves a bearer token to its user, or undefined when unknown. Cached for
 * a few seconds: a token revoked by the CLI (another process) stops working
 * within the cache TTL, one revoked through this server at once.
 */
export async function principalForToken(db: Queryable, token: string): Promise<Principal | undefined> {
  const hash = hashToken(token);
  return cachedRead(db, `token:${hash}`, () => loadPrincipal(db, hash));
}

async function loadPrincipal(db: Queryable, tokenHash: string): Promise<Principal | undefined> {
  const rows = await db.query<{
    id: string;
    display_name: string;
    email: string | null;
    photo_url: string | null;
    instance_admin: boolean;
  }>(
    `SELECT u.id, u.display_name, u.email, u.photo_url, u.instance_admin
       FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
    [tokenHash],
  );
  const u = rows[0];
  return (
    u && {
      userId: u.id,
      displayName: u.display_name,
      email: u.email,
      photoUrl: u.photo_url,
      instanceAdmin: u.instance_admin,
    }
  );
}

/** Extracts the token from `Authorization: Bearer …`, or from `?token=` where allowed. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
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
