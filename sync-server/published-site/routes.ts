import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { pageAtFormerPath } from '../docs/former-paths';
import { encodeBody, encodedWeight, sendEncoded, type EncodedBody } from '../http/compression';
import { SITES_PREFIX, siteBaseUrl } from '../sites/urls';
import { Lru } from '../store/lru';
import { lookOf } from './look';
import type { PageResult } from './page';
import { audienceView } from './page-audience';
import { sectionVariants } from './language-variants';
import { languageViews } from './language-views';
import { locate, visibleSite } from './resolve';
import { rootRobots } from './root-robots';
import { siteRevisions } from './site-revisions';
import { siteIdForHost, stateById } from './state';
import { admitVisitor, parseCookies } from './visitor';
import { organizationVisitorKey } from '../identity/visitor-claims';

/**
 * The rendering half of the sites: layout, pages, markdown to HTML (hast, shiki, KaTeX), search.
 * Loaded by the first site request, not at boot: a server whose sites nobody reads never loads it.
 */
async function loadRendering(ctx: AppContext, origin: string) {
  const [layout, extras, page] = await Promise.all([import('./layout'), import('./extras'), import('./page')]);
  return { ...layout, ...extras, ...page, csp: layout.contentSecurityPolicy(origin), extras: extras.createExtras(ctx) };
}
type Rendering = Awaited<ReturnType<typeof loadRendering>>;

/** A cached outcome: HTML as bytes (with their compressed forms), or a redirect / not-found. */
type Rendered =
  { kind: 'html'; body: EncodedBody; noindex: boolean; status: 200 | 404 } | Exclude<PageResult, { kind: 'html' }>;

/**
 * Serves published sites as HTML, outside /v1 and without API tokens:
 * - by path: `/sites/<siteId>/<section>/<site space>/<page path>`;
 * - by custom hostname: any path of a request whose Host is a site's
 *   `hostname` (except /v1 and the health and metrics endpoints, which a
 *   Host header can never take over).
 * Unpublished and unknown sites are 404; visibility refusals are 401/403
 * pages (see visitor.ts). Rendered pages are cached by site configuration,
 * visible structure and revision id, so new revisions and site changes show
 * at once and hot pages cost no rendering. Pages are compressed (brotli,
 * gzip) once, when rendered, and kept beside their bytes; each carries an
 * ETag, so a revalidation of an unchanged page is a 304 (http/compression.ts).
 * The server's own /robots.txt lists the public sites (root-robots.ts).
 */
export function installPublishedSites(app: FastifyInstance, ctx: AppContext): void {
  const { storage } = ctx;
  // Rendered pages are kept as bytes: encoding ~100 KB of HTML per request would cost more than everything else.
  const rendered = new Lru<string, Rendered>(5_000, {
    maxWeight: 64 * 1024 * 1024,
    weigh: (r) => (r.kind === 'html' ? encodedWeight(r.body) : 100),
  });
  // Message pages (not found, access refused) by title and text: a crawler's 404s are compressed once too.
  const messages = new Lru<string, EncodedBody>(64);
  const origin = new URL(ctx.urls.root).origin;
  let rendering: Promise<Rendering> | undefined;
  const renderer = () =>
    (rendering ??= loadRendering(ctx, origin).catch((err: unknown) => {
      rendering = undefined; // a failed load is tried again by the next request
      throw err;
    }));

  const send = (
    r: Rendering,
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    html: EncodedBody,
    noindex: boolean,
    cacheable: boolean,
    customStyleHash?: string,
  ) => {
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      // nosniff, `Referrer-Policy: no-referrer` (share keys and visitor tokens sit in these URLs) and
      // X-Frame-Options come from the security-headers hook (http/security-headers.ts), as on every page.
      .header('content-security-policy', customStyleHash ? r.contentSecurityPolicy(origin, customStyleHash) : r.csp)
      .header('cache-control', cacheable ? 'public, max-age=0, must-revalidate' : 'private, no-store');
    if (noindex) reply.header('x-robots-tag', 'noindex');
    return sendEncoded(req, reply, html, 'Cookie');
  };
  async function serve(req: FastifyRequest, reply: FastifyReply, siteId: string, base: string, rest: string) {
    const r = await renderer();
    const { extras, buildPage, SCRIPT_VERSION } = r;
    const message = async (to: FastifyReply, status: number, title: string, text: string) => {
      const key = `${title}\n${text}`;
      let body = messages.get(key);
      if (!body) messages.set(key, (body = await encodeBody(r.renderMessage(title, text))));
      return send(r, req, to, status, body, true, false);
    };
    let segments: string[];
    try {
      segments = rest
        .split('/')
        .filter((s) => s !== '')
        .map(decodeURIComponent);
    } catch {
      return message(reply, 404, 'Page not found', 'This address is not valid.');
    }
    const state = await stateById(ctx.db, siteId);
    const site = state?.tree.site;
    if (!state || !site || !site.published)
      return message(reply, 404, 'Site not found', 'There is no published site at this address.');
    const absoluteBase = siteBaseUrl(ctx.urls, site);
    const early = r.publicExtra(rest);
    if (early) return extras.servePublic(req, reply, early, state, absoluteBase);
    const visitor = await admitVisitor(
      site,
      { query: req.query as Record<string, unknown>, cookies: parseCookies(req.headers.cookie) },
      Math.floor(ctx.clock.now().getTime() / 1000),
      () => organizationVisitorKey(ctx.db, site.organization_id),
    );
    if (!visitor.ok)
      return message(
        reply,
        visitor.status,
        visitor.status === 401 ? 'Access required' : 'Access refused',
        visitor.message,
      );
    const secure = ctx.urls.root.startsWith('https:') ? '; Secure' : '';
    for (const c of visitor.setCookies) {
      reply.header(
        'set-cookie',
        `${c.name}=${encodeURIComponent(c.value)}; Path=${base}; HttpOnly; SameSite=Lax${c.maxAge !== undefined ? `; Max-Age=${c.maxAge}` : ''}${secure}`,
      );
    }
    const visible = visibleSite(state.tree, visitor.claims);
    const open = site.visibility === 'public' || site.visibility === 'unlisted';
    const extra = r.visitorExtra(rest);
    if (extra)
      return extras.serveVisitor(req, reply, extra, {
        state,
        visible,
        base,
        absoluteBase,
        segments,
        query: req.query as Record<string, unknown>,
        cacheable: open && !site.adaptive_enabled,
      });
    const located = locate(visible, segments);
    const space = located && state.tree.spaces.get(located.siteSpace.space_id);
    const revisions = siteRevisions(ctx, state);
    const revision = space && (await revisions.get(space.revision));
    if (!located || !space || !revision)
      return message(reply, 404, 'Page not found', 'There is no page at this address.');
    // Pages hold download links, which expire: a rendered page is kept for one link period at most.
    const pages = audienceView(revision, visible);
    // A page's language links depend on the other languages' pages as this visitor reads them. Their
    // revision ids are in the state's signature; only page conditions (adaptive content) make them
    // differ between visitors, so only then are they read for the key, not just to render.
    const { languages } = sectionVariants(visible, located.section, located.siteSpace);
    const loadTranslations = () => languageViews(visible, languages, (id) => revisions.get(id));
    let translations = site.adaptive_enabled && languages.length > 0 ? await loadTranslations() : undefined;
    const audience = [
      base,
      state.signature,
      visible.key,
      revision.id,
      pages.key,
      translations?.key ?? '',
      storage.linkEpoch(),
    ].join('\n');
    const key = `${audience}\n${segments.join('/')}`;
    // A site space's not-found page (its navigation around a message) is kept once, not once per missing
    // URL: made-up addresses must not fill the cache with copies or push real pages out of it.
    const notFoundKey = `${audience}\n~404\n${located.siteSpace.id}`;
    const look = lookOf(state);
    let result = rendered.get(key);
    if (result?.kind === 'not-found') result = rendered.get(notFoundKey);
    if (!result) {
      if (languages.length > 0) translations ??= await loadTranslations();
      const page = await buildPage({
        base,
        visible,
        located,
        view: pages.view,
        hidden: pages.hidden,
        storage,
        markdown: ctx.markdown,
        openapi: { db: ctx.db, specs: state.openapiSpecs },
        integrations: {
          runtime: { db: ctx.db, present: ctx.integrations.deps.present, blocks: ctx.integrations.blocks },
          log: (msg, detail) => req.log.info(detail, msg),
        },
        spaceTitle: (ss) => state.tree.spaces.get(ss.space_id)?.title || 'Untitled',
        canonicalBase: absoluteBase,
        scriptVersion: SCRIPT_VERSION,
        look,
        formerPage: (v, path) => pageAtFormerPath(ctx.hub, v, path),
        languageViews: translations?.views,
      });
      result =
        page.kind === 'html'
          ? { kind: 'html', body: await encodeBody(page.html), noindex: page.noindex, status: page.status ?? 200 }
          : page;
      if (result.kind === 'html' && result.status === 404) {
        rendered.set(notFoundKey, result);
        rendered.set(key, { kind: 'not-found' });
      } else if (!(page.kind === 'html' && page.dynamic)) rendered.set(key, result); // integration blocks: drawn per view (their renders are cached)
    }
    if (result.kind === 'redirect') return reply.redirect(result.location, result.permanent ? 301 : 302);
    if (result.kind === 'not-found') return message(reply, 404, 'Page not found', 'There is no page at this address.');
    return send(
      r,
      req,
      reply,
      result.status,
      result.body,
      result.noindex,
      open && !site.adaptive_enabled,
      look.cssHash,
    );
  }

  const pathOf = (req: FastifyRequest) => req.url.split('?')[0] ?? '/';
  const byPath = async (req: FastifyRequest<{ Params: { siteId: string } }>, reply: FastifyReply) => {
    const { siteId } = req.params;
    const prefix = `${SITES_PREFIX}${siteId}`;
    const path = pathOf(req);
    // `/sites/<id>` -> `/sites/<id>/`, so relative links resolve under the site.
    if (path === prefix) return reply.redirect(`${prefix}/${req.url.slice(path.length)}`, 301);
    return serve(req, reply, siteId, `${prefix}/`, path.slice(prefix.length + 1));
  };
  app.get('/sites/:siteId', { schema: { hide: true } }, byPath);
  app.get('/sites/:siteId/*', { schema: { hide: true } }, byPath);
  // The server's own robots.txt; a request with a site's hostname never gets here (the hook below answers it).
  app.get('/robots.txt', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const body = await rootRobots(ctx.db, ctx.urls.root);
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=0, must-revalidate');
    return sendEncoded(req, reply, body);
  });

  const publicHost = new URL(ctx.urls.root).hostname;
  const RESERVED = /^\/(v1|healthz|readyz|metrics)(\/|$)/;
  // The Host of almost every request: the public hostname, with or without a port, as the server writes it.
  const isPublicHost = (raw: string) =>
    raw.startsWith(publicHost) && (raw.length === publicHost.length || raw.charCodeAt(publicHost.length) === 58); // ':'
  // Runs for every request: a callback hook that decides synchronously in the common case (no promise, no lookup).
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.headers.host;
    if (!raw || (req.method !== 'GET' && req.method !== 'HEAD') || isPublicHost(raw)) return done();
    const host = raw.toLowerCase().replace(/:\d+$/, '');
    const path = pathOf(req);
    if (host === publicHost || RESERVED.test(path)) return done();
    siteIdForHost(ctx.db, host).then((siteId) => {
      if (!siteId) return done();
      // The site answers: the request goes no further (done is not called).
      serve(req, reply, siteId, '/', path.slice(1)).then(undefined, done);
    }, done);
  });
}
