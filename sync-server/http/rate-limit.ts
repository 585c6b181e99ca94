import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  preParsingHookHandler,
  RouteOptions,
} from 'fastify';
import { bearerToken } from '../identity/principal';
import { PendingSignInLimitError, runAsSignInClient } from '../store/sign-in-requests';
import { ApiError } from './errors';
import { prependRouteHook } from './route-hooks';
import { addressKey, type AuthAttempt, type RateLimits, type Wait } from './rate-limiter';
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

/** Whether a path is `prefix` or under it (its query string aside). */
function isUnder(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63; /* ? */
}

/** The sign-in routes (api/sign-in/, registered under this prefix by app.ts). */
const SIGN_IN_PREFIX = '/auth';

/**
 * Which limit the app-wide hook applies before authentication: `route` for
 * a /v1 route (each has its own hook, added when the route is: see
 * installRateLimits), the anonymous one for published sites (also at the
 * root of their own hostname), the sign-in one for /auth (its routes and
 * whatever else is asked there), or none (the web app's files, health). It
 * tells a routed request from a 404 by `is404` and reads the raw URL, not
 * request.routeOptions, which Fastify builds anew on every read.
 */
function kindOf(request: FastifyRequest, publicHost: () => string): 'route' | 'anonymous' | 'sign-in' | undefined {
  if (!request.is404) {
    // Every route under /v1 is a /v1 route pattern, and so is every /sites one (published-site/routes.ts).
    if (isUnder(request.url, '/v1')) return 'route';
    if (isUnder(request.url, '/sites')) return 'anonymous';
  }
  const host = request.headers.host?.toLowerCase().replace(/:\d+$/, '');
  if (host && host !== publicHost() && !NOT_SITE_PATHS.test(request.url)) return 'anonymous';
  return isUnder(request.url, SIGN_IN_PREFIX) ? 'sign-in' : undefined;
}

/**
 * Installs the rate limits (see RateLimits) as hooks; install after CORS (a
 * 429 carries CORS headers) and AFTER the auth hook's installation (http/auth.ts),
 * so that each /v1 route's limit goes in front of the auth hook, whose verdict
 * the failed-authentication limit must precede:
 * - onRequest of each /v1 route (added when the route is): a request to a
 *   protected route claims a failed-auth credit of its client address (429
 *   when none is left) unless its token was seen valid; public routes count
 *   per address;
 * - onRequest of the app (before the published-site hook, which may answer
 *   first): /sites pages and sites at the root of their own hostname count per
 *   address; so does everything under /auth, in a budget of its own (each
 *   sign-in start leaves a pending row: a burst of them is refused here,
 *   before any is saved);
 * - preHandler of each /auth route: the handler runs as its client
 *   (runAsSignInClient), so each sign-in step it saves counts against the
 *   address's cap of pending sign-ins (store/sign-in-requests.ts), whichever
 *   flow saves it; a refusal is a 429 with Retry-After like the others;
 * - when a claiming request ends: a 401 keeps the claim (a failed
 *   authentication), anything else gives it back;
 * - preParsing of each protected /v1 route whose method is limited (after
 *   auth, before the body is read): REST writes (and reads when limited)
 *   count per token.
 * Routes decide their limit once, so no request reads request.routeOptions.
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
  const signIn = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    limits
      .forSignIn(request.ip)
      .then(
        (wait) => done(wait > 0 ? tooMany(reply, wait, 'Too many sign-in requests from this address') : undefined),
        done,
      );
  };
  const anonymous = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    limits
      .forAnonymous(request.ip)
      .then((wait) => done(wait > 0 ? tooMany(reply, wait, 'Too many requests from this address') : undefined), done);
  };
  const failedAuth = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const attempt = limits.attempt(request.ip, bearerToken(request.headers.authorization));
    if (attempt instanceof Promise) attempt.then((a) => admit(request, reply, a, done), done);
    else admit(request, reply, attempt, done);
  };
  const perToken: preParsingHookHandler = (request, reply, payload, done) => {
    const read = READ_METHODS.has(request.method);
    const token = limits.limitsToken(read) && request.principal && bearerToken(request.headers.authorization);
    if (!token) return done(null, payload);
    limits.forToken(token, read).then(
      (wait) => done(wait > 0 ? tooMany(reply, wait, 'Too many requests with this token') : null, payload),
      (err: Error) => done(err),
    );
  };
  // A /v1 route's limit is decided once, when the route is added, by the same rule as the auth hook (http/auth.ts):
  // routes marked public count per address, the others claim a failed-auth credit.
  const limitOf = (route: RouteOptions) =>
    route.config?.public
      ? limits.limitsAnonymous
        ? anonymous
        : undefined
      : limits.limitsFailures
        ? failedAuth
        : undefined;
  const pendingCap = limits.pendingSignInCap;
  // Callback-style, so the handler (called from `done`) and everything it awaits run inside the client's context.
  const asSignInClient: preHandlerHookHandler = (request, _reply, done) =>
    runAsSignInClient({ address: addressKey(request.ip), cap: pendingCap }, done);
  if (pendingCap > 0)
    // The error handler answers the refusal (its statusCode, 429); the wait goes with it.
    app.addHook('onError', (_request, reply, error, done) => {
      if (error instanceof PendingSignInLimitError) reply.header('retry-after', String(error.retryAfterS));
      done();
    });
  app.addHook('onRoute', (route) => {
    if (pendingCap > 0 && isUnder(route.url, SIGN_IN_PREFIX)) firstRouteHook(route, asSignInClient);
    if (!route.url.startsWith('/v1')) return;
    if (hasPerTokenLimit(limits, route)) prependRouteHook(route, 'preParsing', perToken);
    const limit = limitOf(route);
    // First of the route's hooks, ahead of the auth hook (installed before this one, it has added its own by now).
    if (limit) prependRouteHook(route, 'onRequest', limit);
  });
  // Failed authentications are counted by each /v1 route's own hook (above): this one only when it has work.
  if (limits.limitsAnonymous || limits.limitsSignIn) {
    const hook: onRequestHookHandler = (request, reply, done) => {
      const kind = kindOf(request, publicHost);
      if (kind === 'anonymous' && limits.limitsAnonymous) return anonymous(request, reply, done);
      if (kind === 'sign-in' && limits.limitsSignIn) return signIn(request, reply, done);
      done();
    };
    app.addHook('onRequest', hook);
  }
}

/** Puts `hook` first among a route's own preHandler hooks (once; in a new array: see route-hooks.ts). */
function firstRouteHook(route: RouteOptions, hook: preHandlerHookHandler): void {
  const given = route.preHandler;
  const own = given === undefined ? [] : Array.isArray(given) ? given : [given];
  if (!own.includes(hook)) route.preHandler = [hook, ...own];
}

/**
 * Whether a protected /v1 route gets the per-token limit (a preParsing hook: after auth, before the body is
 * read): when one of its methods is limited. Reads are not by default, so a GET then pays no hook.
 */
function hasPerTokenLimit(limits: RateLimits, route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return !route.config?.public && methods.some((m) => limits.limitsToken(READ_METHODS.has(m)));
}
