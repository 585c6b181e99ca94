import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { errorBody } from './http/errors';

/** Where `npm run build` (electron-vite) writes the renderer. */
export const DEFAULT_WEB_APP_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../out/renderer');

/** The path the web app is served under. */
export const WEB_APP_PREFIX = '/app/';

/**
 * Cross-origin access to the /v1 API. The desktop app loads the renderer from
 * file:// and a web app may be served from another host, so their REST calls
 * are cross-origin. Every origin is allowed on purpose: the API authenticates
 * with bearer tokens only and never reads cookies, so a foreign page gains
 * nothing from CORS that it could not do with a token it already holds
 * (`credentials` stays false: no ambient authority crosses origins).
 *
 * Must be installed before the auth hook: CORS headers are set in an
 * onRequest hook, so a 401 still carries them and the browser shows the
 * caller the API's error instead of an opaque network failure.
 */
export async function installCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (req, callback) => {
      const isApi = (req.url ?? '').startsWith('/v1/') || req.url === '/v1';
      callback(null, {
        origin: isApi ? '*' : false,
        methods: 'GET,HEAD,POST,PUT,PATCH,DELETE',
        credentials: false,
        exposedHeaders: ['location', 'etag', 'x-request-id', 'retry-after'],
        maxAge: 600,
      });
    },
  });
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

/**
 * Serves the built renderer (out/renderer) at /app/ as a web app. When it was
 * not built, /app/ answers 503 with the command that builds it rather than a
 * bare 404, so an operator knows what is missing.
 */
export async function registerWebApp(app: FastifyInstance, dir = DEFAULT_WEB_APP_DIR): Promise<void> {
  app.get('/app', { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
    reply.redirect(WEB_APP_PREFIX),
  );
  if (!existsSync(resolve(dir, 'index.html'))) {
    const notBuilt = errorBody(
      503,
      'The web app is not built on this server: run `npm run build`, then restart the server',
    );
    app.get(`${WEB_APP_PREFIX}*`, { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
      reply.status(503).send(notBuilt),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: WEB_APP_PREFIX,
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
}
