import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../identity/principal';
import { ApiError } from './errors';
import type { AuthAttempt, RateLimits, Wait } from './rate-limiter';
import type { Urls } from '../urls';

declare module 'fastify' {
  interface FastifyRequest {
    /** The failed-authentication claim of a request to a protected /v1 route, settled when it is answered. */
    authAttempt: AuthAttempt | undefined;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A 429 in the error shape, with `Retry-After` (set on the reply: the error handler keeps it). */
function tooMany(reply: FastifyReply, wait: Wait, message: string): ApiError {
  reply.header('retry-after', String(wait));
  return new ApiError(429, `${message}; retry in ${wait} s`);
}

/** Lets a request to a protected /v1 route through with its failed-auth claim, or refuses it (429). */
function admit(request: FastifyRequest, reply: FastifyReply, a: AuthAttempt, done: (err?: Error) => void): void {
  if (a.wait > 0) return done(tooMany(reply, a.wait, 'Too many failed authentications from this address'));
  request.authAttempt = a;
  // Only a request holding a credit listens for its end (answered or abandoned: then its credit comes back);
  // the hot path of a known token adds no listener.
  if (a.claimed)
    reply.raw.once('close', () =>
      a.settle(reply.statusCode === 401 ? 'failed' : request.principal !== undefined ? 'accepted' : 'other'),
    );
  done();
}

/** Paths a site's own hostname never serves (published-site/routes.ts). */
const NOT_SITE_PATHS = /^\/(v1|healthz|readyz|metrics)(\/|\?|$)/;

/**
 * Which limit a request falls under before authentication: the /v1 auth
 * check's, the anonymous one (public /v1 routes, published sites, also at
 * the root of their own hostname), or none (the web app's files, health).
 */
function kindOf(request: FastifyRequest, publicHost: () => string): 'auth' | 'anonymous' | undefined {
  // One read: Fastify builds the routeOptions object on every access.
  const { url, config } = request.routeOptions;
  // The same rule as the auth hook (http/auth.ts): /v1 routes not marked public need a token.
  if (url?.startsWith('/v1')) return config?.public ? 'anonymous' : 'auth';
  if (url?.startsWith('/sites')) return 'anonymous';
  const host = request.headers.host?.toLowerCase().replace(/:\d+$/, '');
  return host && host !== publicHost() && !NOT_SITE_PATHS.test(request.url) ? 'anonymous' : undefined;
}

/**
 * Installs the rate limits (see RateLimits) as hooks; install after CORS (a
 * 429 carries CORS headers) and BEFORE the auth hook, whose verdict the
 * failed-authentication limit must precede:
 * - onRequest: a request to a protected /v1 route claims a failed-auth credit
 *   of its client address (429 when none is left) unless its token was seen
 *   valid; published-site pages and public /v1 routes count per address;
 * - when such a request ends: a 401 keeps the claim (a failed
 *   authentication), anything else gives it back;
 * - preParsing (after auth, before the body is read): REST writes (and reads
 *   when limited) count per token.
 * The fast path (a known token, a read, no Redis) is synchronous and adds no
 * listener: the REST benchmark measures it.
 */
export function installRateLimits(app: FastifyInstance, limits: RateLimits, urls: Urls): void {
  let root = '';
  let host = '';
  // The public hostname, parsed again only when the base URL changes (port 0: once the server listens).
  const publicHost = () => (urls.root === root ? host : (host = new URL((root = urls.root)).hostname));
  if (limits.limitsFailures) {
    app.decorateRequest('authAttempt', undefined);
    // Runs only for errors: the auth hook's 401 settles a known token's attempt as failed (a revoked token).
    app.addHook('onError', (request, _reply, error, done) => {
      if ((error as { status?: number }).status === 401) request.authAttempt?.settle('failed');
      done();
    });
  }
  if (limits.limitsFailures || limits.limitsAnonymous)
    app.addHook('onRequest', (request, reply, done) => {
      const kind = kindOf(request, publicHost);
      if (kind === 'anonymous') {
        limits
          .forAnonymous(request.ip)
          .then(
            (wait) => done(wait > 0 ? tooMany(reply, wait, 'Too many requests from this address') : undefined),
            done,
          );
        return;
      }
      if (kind !== 'auth' || !limits.limitsFailures) return done();
      const attempt = limits.attempt(request.ip, bearerToken(request.headers.authorization));
      if (attempt instanceof Promise) attempt.then((a) => admit(request, reply, a, done), done);
      else admit(request, reply, attempt, done);
    });
  if (limits.limitsToken(true) || limits.limitsToken(false))
    app.addHook('preParsing', (request, reply, payload, done) => {
      const read = READ_METHODS.has(request.method);
      const token = limits.limitsToken(read) && request.principal && bearerToken(request.headers.authorization);
      if (!token) return done(null, payload);
      limits.forToken(token, read).then(
        (wait) => done(wait > 0 ? tooMany(reply, wait, 'Too many requests with this token') : null, payload),
        (err: Error) => done(err),
      );
    });
}
