import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { acceptedCodings, COMPRESS_MIN_BYTES, encodeBody, sendEncoded, type EncodedBody } from './http/compression';
import { errorBody } from './http/errors';
import { Lru } from './store/lru';

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
 * its own `folio-app://` scheme (main/app-protocol.ts) and a web app may be served from another host, so their REST calls
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
      installCompressedFiles(scope, dir);
      await scope.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        // The entry page must never be stale after an upgrade; hashed assets may be cached for long.
        cacheControl: false,
        setHeaders: (reply, path, stat) => {
          fileHeaders(reply, path);
          // The file has compressed forms for clients that ask (installCompressedFiles): caches must tell them apart.
          if (COMPRESSIBLE[extname(path).toLowerCase()] && stat.size >= COMPRESS_MIN_BYTES)
            reply.header('vary', 'Accept-Encoding');
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

/** Headers of a web app file, compressed or not. */
function fileHeaders(reply: FastifyReply, path: string): void {
  const html = path.endsWith('.html');
  reply.header('cache-control', html ? 'no-cache' : 'public, max-age=31536000, immutable');
  // nosniff, Referrer-Policy and X-Frame-Options come from the security-headers hook (http/), for every page.
  if (html) reply.header('content-security-policy', WEB_APP_CSP);
}

/** Types of the web app's files worth compressing (as @fastify/static names them for the uncompressed ones). */
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the web app's text files compressed to clients that accept it (the
 * others, and every other file, go on to @fastify/static). Each file is
 * compressed once per process, by the first request that wants it, and kept
 * in memory (the built app is ~2.4 MB, ~0.7 MB compressed) keyed by its size
 * and modification time, so a rebuild is picked up. Cheaper than
 * @fastify/compress, which compresses the same file again for every request,
 * and needs no build step writing `.br`/`.gz` files beside the build (which
 * a rebuild could leave stale next to a changed file).
 */
function installCompressedFiles(scope: FastifyInstance, dir: string): void {
  const root = resolve(dir);
  const files = new Lru<string, { size: number; version: string; body: Promise<EncodedBody> }>(500, {
    // The file and its compressed forms (weighed before they are made: about half the file for text).
    maxWeight: 64 * 1024 * 1024,
    weigh: (e) => e.size * 1.5,
  });
  scope.addHook('onRequest', async (req, reply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || acceptedCodings(req.headers['accept-encoding']).length === 0)
      return;
    const path = (req.url ?? '').split(/[?#]/)[0]!;
    const type = COMPRESSIBLE[extname(path).toLowerCase()];
    if (!type || !path.startsWith(WEB_APP_PREFIX)) return;
    let relative: string;
    try {
      relative = decodeURIComponent(path.slice(WEB_APP_PREFIX.length));
    } catch {
      return; // @fastify/static answers a malformed path
    }
    // Path traversal: no `..` or other dot segment, no NUL, no backslash; and the file must resolve under the root.
    if (/[\\\0]/.test(relative) || relative.split('/').some((s) => s.startsWith('.'))) return;
    const file = resolve(root, relative);
    if (!file.startsWith(root + sep)) return;
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || info.size < COMPRESS_MIN_BYTES) return;
    const version = `${info.size}:${info.mtimeMs}`;
    let entry = files.get(file);
    if (entry?.version !== version) {
      const tag = `${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}`;
      const made = {
        size: info.size,
        version,
        body: readFile(file).then((b) => encodeBody(b, { tag, kind: 'static' })),
      };
      // A failure is not kept: the next request makes it again.
      made.body.catch(() => (made.version = ''));
      files.set(file, (entry = made));
    }
    const body = await entry.body.catch(() => undefined);
    if (!body) return;
    fileHeaders(reply.type(type), file);
    return sendEncoded(req, reply, body);
  });
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
