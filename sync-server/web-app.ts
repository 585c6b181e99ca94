import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from './http/errors';

/** Where `npm run build` (electron-vite) writes the renderer. */
export const DEFAULT_WEB_APP_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../out/renderer');

/** The path the web app is served under. */
export const WEB_APP_PREFIX = '/app/';

/** Response headers a cross-origin caller of /v1 may read. */
const API_EXPOSED_HEADERS = 'location, etag, x-request-id, retry-after';
/** Methods a preflight of /v1 allows. */
const API_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE';

const isApiUrl = (url: string) => url.startsWith('/v1/') || url === '/v1';

/**
 * Cross-origin access to the /v1 API. The desktop app loads the renderer from
 * file:// and a web app may be served from another host, so their REST calls
 * are cross-origin. Every origin is allowed on purpose: another origin can
 * only authenticate with a bearer token (a request signed in with the session
 * cookie must come from this server, http/auth.ts), so a foreign page gains
 * nothing from CORS that it could not do with a token it already holds
 * (`credentials` stays off: no ambient authority crosses origins). Other
 * paths get no CORS headers (the sign-in routes that need them set their own,
 * api/sign-in/open-cors.ts).
 *
 * A plain callback hook rather than @fastify/cors, whose per-request options
 * delegator cost about a seventh of a cached GET; the headers are the same
 * (less its `Vary: Origin`, meaningless when every origin gets `*`).
 * Must be installed before the auth hook: CORS headers are set in an
 * onRequest hook, so a 401 still carries them and the browser shows the
 * caller the API's error instead of an opaque network failure. Preflights
 * are answered here too, before authentication (a browser sends them without
 * the Authorization header).
 */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiUrl(request.url)) return done();
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', API_EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS') return done();
    const headers = request.headers;
    if (!headers.origin || !headers['access-control-request-method']) {
      void reply
        .status(400)
        .send(errorBody(400, 'Invalid preflight request: it needs Origin and Access-Control-Request-Method'));
      return;
    }
    reply.header('access-control-allow-methods', API_METHODS).header('vary', 'Access-Control-Request-Headers');
    const asked = headers['access-control-request-headers'];
    if (asked !== undefined) reply.header('access-control-allow-headers', asked);
    // Safari waits for a body on a 204 without content-length 0.
    void reply.header('access-control-max-age', '600').code(204).header('content-length', '0').send();
  });
  // Lets Fastify route any OPTIONS request to the hook above; a preflight it did not answer (not /v1) is a 404.
  app.options('*', { config: { public: true }, schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}

/**
 * The web app's Content-Security-Policy: what its own `<meta>` policy allows
 * (scripts and styles from /app/, API calls and sync sockets to any server the
 * user signs in to, images from anywhere), plus what only a header can say:
 * nobody may frame it (a framed app can be clickjacked into deleting or
 * sharing), no plugins, no `<base>` or form posts elsewhere.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  'connect-src * ws: wss: http: https:',
  "img-src 'self' data: blob: http: https:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The app icon in the source tree: served even before the renderer is built. */
export const SOURCE_FAVICON = resolve(fileURLToPath(new URL('.', import.meta.url)), '../renderer/public/favicon.ico');

/**
 * Serves the built renderer (out/renderer) at /app/ as a web app, and the app
 * icon at /favicon.ico (browsers ask the server root for it, whatever page
 * they show). `npm start` builds the renderer first when it is missing
 * (scripts/start.ts); a server started some other way without a build answers
 * /app/ with 503 and the command that builds it rather than a bare 404, so an
 * operator knows what is missing.
 */
export async function registerWebApp(app: FastifyInstance, dir = DEFAULT_WEB_APP_DIR): Promise<void> {
  app.get('/app', { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
    reply.redirect(WEB_APP_PREFIX),
  );
  registerFavicon(app, dir);
  if (!existsSync(resolve(dir, 'index.html'))) {
    const notBuilt = errorBody(
      503,
      'The web app is not built on this server: start it with `npm start` (it builds the app when missing), or run `npm run build` and restart the server',
    );
    app.get(`${WEB_APP_PREFIX}*`, { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
      reply.status(503).send(notBuilt),
    );
    return;
  }
  // Encapsulated, so the not-found handler below answers only for /app/ paths.
  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        // The entry page must never be stale after an upgrade; hashed assets may be cached for long.
        cacheControl: false,
        setHeaders: (reply, path) => {
          const html = path.endsWith('.html');
          reply.header('cache-control', html ? 'no-cache' : 'public, max-age=31536000, immutable');
          // nosniff, Referrer-Policy and X-Frame-Options come from the security-headers hook (http/), for every page.
          if (html) reply.header('content-security-policy', WEB_APP_CSP);
        },
        schemaHide: true,
      });
      scope.setNotFoundHandler(async (req, reply) => {
        const path = (req.url ?? '').split(/[?#]/)[0]!;
        // A missing asset stays a 404; any other /app/ path is a client-side route (history routing).
        if (req.method !== 'GET' && req.method !== 'HEAD') return reply.status(404).send(errorBody(404, 'Not found'));
        if (!path.startsWith(WEB_APP_PREFIX) || /\.[A-Za-z0-9]{1,8}$/.test(path))
          return reply.status(404).send(errorBody(404, `No file ${path} in the web app`));
        const html = await readFile(resolve(dir, 'index.html'), 'utf8');
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', WEB_APP_CSP)
          .send(rebaseEntryPage(html, path));
      });
    },
    { prefix: WEB_APP_PREFIX.replace(/\/$/, '') },
  );
}

/**
 * The entry page as served at a deeper client-side route: its asset URLs are relative (`./assets/…`,
 * so the same build loads from file:// too), so at `/app/s/abc/guide` they are rewritten to climb
 * back to /app/ (`../../../assets/…`). Relative, not absolute, so a reverse proxy may mount the
 * server under a path.
 */
export function rebaseEntryPage(html: string, requestPath: string): string {
  const depth = requestPath.slice(WEB_APP_PREFIX.length).split('/').length - 1;
  if (depth <= 0) return html;
  return html.replace(/(\s(?:src|href)=["'])\.\//g, `$1${'../'.repeat(depth)}`);
}

/**
 * GET /favicon.ico at the server root and at /app/favicon.ico (the link in
 * index.html): the built icon when there is one, else the source tree's, so
 * no browser tab logs a 404 for it — built or not, old build or new.
 */
function registerFavicon(app: FastifyInstance, dir: string): void {
  const built = resolve(dir, 'favicon.ico');
  const send = async (_req: unknown, reply: FastifyReply) => {
    const file = existsSync(built) ? built : SOURCE_FAVICON;
    if (!existsSync(file)) return reply.status(404).send(errorBody(404, 'This server has no icon'));
    return reply
      .header('content-type', 'image/x-icon')
      .header('cache-control', 'public, max-age=86400')
      .send(await readFile(file));
  };
  app.get('/favicon.ico', { config: { public: true }, schema: { hide: true } }, send);
  app.get(`${WEB_APP_PREFIX}favicon.ico`, { config: { public: true }, schema: { hide: true } }, send);
}
