import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { encodeBody, encodedWeight, sendEncoded, type EncodedBody } from '../http/compression';
import { Lru } from '../store/lru';
import { llmsFullTxt, llmsTxt, markdownPath, pageMarkdown, robotsTxt, sitemapXml } from './machine';
import { visibleMarkdown } from './hidden-links';
import { linkTargetsOf } from './page';
import type { HiddenPages } from './page-audience';
import { audienceView, siteAudienceKey } from './page-audience';
import { locate, type VisibleSite } from './resolve';
import { buildSiteSearch, type SiteSearch } from './search';
import { SITE_SCRIPT } from './site-script';
import { sitePages } from './site-pages';
import { sitemapAlternates } from './sitemap-languages';
import type { PublishedState } from './state';
import { siteRevisions } from './site-revisions';

/**
 * The published site's addresses other than pages, under the site root:
 * `~folio/site.js` (the enhancement script), `~folio/search?q=` (JSON),
 * `robots.txt`, `sitemap.xml`, `llms.txt`, `llms-full.txt` and `<page>.md`.
 * The first two are Folio's own (GitBook keeps its assets under `~gitbook/`);
 * a page path cannot start with `~`, so none of them hides a page.
 */

/** Version of the script, in its URL: the file can then be cached for good. */
export const SCRIPT_VERSION = createHash('sha256').update(SITE_SCRIPT).digest('base64url').slice(0, 12);

/** The script with its compressed forms, made once per process (by the first request for it). */
let script: Promise<EncodedBody> | undefined;
const siteScript = () =>
  (script ??= encodeBody(SITE_SCRIPT, { tag: SCRIPT_VERSION, kind: 'static' }).catch((err: unknown) => {
    script = undefined;
    throw err;
  }));

/** Addresses answered before the visitor is admitted (nothing in them depends on who asks). */
export function publicExtra(rest: string): 'script' | 'robots' | undefined {
  if (rest === '~folio/site.js') return 'script';
  if (rest === 'robots.txt') return 'robots';
  return undefined;
}

/** Addresses that need the visitor's view of the site. */
export function visitorExtra(rest: string): 'search' | 'sitemap' | 'llms' | 'llms-full' | 'markdown' | undefined {
  if (rest === '~folio/search') return 'search';
  if (rest === 'sitemap.xml') return 'sitemap';
  if (rest === 'llms.txt') return 'llms';
  if (rest === 'llms-full.txt') return 'llms-full';
  if (rest.endsWith('.md')) return 'markdown';
  return undefined;
}

const notFoundJson = (reply: FastifyReply, message: string) =>
  reply.status(404).send({ error: { code: 404, message } });

/** Serves the extras of one site; one instance per server (it caches search indexes). */
export function createExtras(ctx: AppContext) {
  const indexes = new Lru<string, SiteSearch>(200);
  const building = new Map<string, Promise<SiteSearch>>();
  // sitemap.xml, llms*.txt and robots.txt, as bytes with their compressed forms, by what they are made of: the
  // site's state (its configuration and the revision of every space) and what the visitor may see. A new
  // revision or site change is a new key.
  const machine = new Lru<string, EncodedBody>(500, { maxWeight: 32 * 1024 * 1024, weigh: encodedWeight });
  // Pages' markdown copies, by site state, audience, revision and page: made and compressed once.
  const markdownCopies = new Lru<string, EncodedBody>(2_000, { maxWeight: 32 * 1024 * 1024, weigh: encodedWeight });

  /** Which pages the visitor may read across the site (page conditions), for the keys of site-wide outputs. */
  const audienceKey = (visible: VisibleSite) =>
    siteAudienceKey(visible, async (spaceId) => {
      const revision = visible.tree.spaces.get(spaceId)?.revision;
      return revision ? ctx.revisions.get(revision) : undefined;
    });

  /** A page's markdown as this visitor may read it: links to pages hidden from them as text. */
  const markdownFor = (markdown: string, fromPath: string, hidden: HiddenPages | undefined) =>
    visibleMarkdown(
      markdown,
      fromPath,
      hidden && { pages: hidden, targets: linkTargetsOf(hidden.full).targets },
      ctx.markdown,
    );

  function text(req: FastifyRequest, reply: FastifyReply, type: string, body: EncodedBody, cacheable: boolean) {
    reply.type(type).header('cache-control', cacheable ? 'public, max-age=0, must-revalidate' : 'private, no-store');
    return sendEncoded(req, reply, body, 'Cookie');
  }

  return {
    async servePublic(
      req: FastifyRequest,
      reply: FastifyReply,
      kind: 'script' | 'robots',
      state: PublishedState,
      absoluteBase: string,
    ) {
      if (kind === 'script') {
        const body = await siteScript();
        reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable');
        return sendEncoded(req, reply, body);
      }
      const site = state.tree.site;
      const key = ['robots', absoluteBase, site.visibility].join('\n');
      let body = machine.get(key);
      if (!body) machine.set(key, (body = await encodeBody(robotsTxt(site, absoluteBase))));
      return text(req, reply, 'text/plain; charset=utf-8', body, true);
    },

    async serveVisitor(
      req: FastifyRequest,
      reply: FastifyReply,
      kind: NonNullable<ReturnType<typeof visitorExtra>>,
      r: {
        state: PublishedState;
        visible: VisibleSite;
        base: string;
        absoluteBase: string;
        segments: string[];
        query: Record<string, unknown>;
        cacheable: boolean;
      },
    ) {
      const site = r.state.tree.site;
      if (kind === 'search') {
        const q = typeof r.query.q === 'string' ? r.query.q : '';
        if (q.length > 200)
          return reply
            .status(400)
            .send({ error: { code: 400, message: 'The query is too long (200 characters at most)' } });
        const key = [r.base, r.state.signature, r.visible.key, await audienceKey(r.visible)].join('\n');
        let index = indexes.get(key);
        if (!index) {
          // Concurrent first searches share one build; a failed build is not kept.
          let pending = building.get(key);
          if (!pending) {
            pending = sitePages(r.visible, siteRevisions(ctx, r.state)).then((pages) =>
              buildSiteSearch(pages, ctx.markdown, (path) => r.base + path),
            );
            building.set(key, pending);
            void pending.finally(() => building.delete(key)).catch(() => undefined);
          }
          index = await pending;
          indexes.set(key, index);
        }
        const results = index.search(q);
        // Not compressed: each answer is made for its query (a few kB at most), and compressing per request is
        // what the rest of the site avoids.
        return reply.header('cache-control', 'private, no-store').send({ query: q, results });
      }
      if (kind === 'markdown') {
        const path = r.segments.join('/').slice(0, -'.md'.length);
        const segments = (path.endsWith('/index') || path === 'index' ? path.slice(0, -'index'.length) : path)
          .split('/')
          .filter((s) => s !== '');
        const located = locate(r.visible, segments);
        const space = located && r.state.tree.spaces.get(located.siteSpace.space_id);
        const revision = space && (await siteRevisions(ctx, r.state).get(space.revision));
        if (!located || !revision) return notFoundJson(reply, 'There is no page at this address');
        const { view, hidden, key: audience } = audienceView(revision, r.visible);
        const page = located.pagePath === '' ? linkTargetsOf(view).firstPage : view.pagesByPath.get(located.pagePath);
        if (!page || page.type !== 'document' || page.hidden === true)
          return notFoundJson(reply, 'There is no page at this address');
        const key = [r.base, r.state.signature, r.visible.key, revision.id, audience, page.id].join('\n');
        let body = markdownCopies.get(key);
        if (!body) {
          const description = typeof page.description === 'string' && page.description ? page.description : undefined;
          body = await encodeBody(
            pageMarkdown({
              title: String(page.title ?? ''),
              description,
              markdown: await markdownFor(String(page.markdown ?? ''), String(page.path), hidden),
            }),
          );
          markdownCopies.set(key, body);
        }
        return text(req, reply, 'text/markdown; charset=utf-8', body, r.cacheable);
      }
      const key = [kind, r.base, r.absoluteBase, r.state.signature, r.visible.key, await audienceKey(r.visible)].join(
        '\n',
      );
      let body = machine.get(key);
      if (!body) {
        let pages = await sitePages(r.visible, siteRevisions(ctx, r.state));
        if (kind === 'llms-full')
          pages = await Promise.all(
            pages.map(async (p) =>
              p.hidden ? { ...p, markdown: await markdownFor(p.markdown, String(p.page.path), p.hidden) } : p,
            ),
          );
        body = await encodeBody(
          kind === 'sitemap'
            ? sitemapXml(pages, r.absoluteBase, sitemapAlternates(r.visible, pages, r.absoluteBase))
            : kind === 'llms'
              ? llmsTxt(site, pages, r.absoluteBase)
              : llmsFullTxt(pages, r.absoluteBase),
        );
        machine.set(key, body);
      }
      const type = kind === 'sitemap' ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8';
      return text(req, reply, type, body, r.cacheable);
    },
  };
}

export { markdownPath };
