import { extractPage, contentToMarkdown, type ExtractedPage } from './html-content';
import { downloadImages, type ImageOptions } from './images';
import { ImportTally } from './tally';
import { pagesByUrlPath } from './url-tree';
import { failureDetail, ImportError, type Fetched, type ImportTree, refNamer } from './types';

/**
 * A website import: the start page, then same-site links breadth-first up to `maxPages` pages;
 * each page's main content as markdown, its images downloaded as files (images.ts), links between
 * imported pages rewritten to those pages, the tree taken from the URL paths (url-tree.ts). What
 * is left out is counted and listed with its reason (tally.ts), never dropped silently.
 */

export type { Fetched } from './types';

export interface WebsiteOptions extends ImageOptions {
  runId: string;
  maxPages: number;
}

/** The URL a page is known by: no fragment, no trailing slash but the root's. */
export function pageKey(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  if (url.pathname.length > 1) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  url.pathname = url.pathname.replace(/\/index\.html?$/i, '') || '/';
  return url.href;
}

/** Paths that are surely not HTML pages (downloads, images, feeds): not crawled. */
const NOT_A_PAGE =
  /\.(png|jpe?g|gif|webp|svg|ico|pdf|zip|gz|tgz|mp4|mp3|webm|css|js|json|xml|rss|atom|txt|woff2?|ttf)$/i;

/**
 * Whether `url` is a page of the site the import started on: same origin, under the start page's
 * folder (an import started at /docs/intro stays in /docs/, not the blog), and likely a page.
 */
function sameSite(url: string, start: URL): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const folder = start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
  return u.origin === start.origin && u.pathname.startsWith(folder) && !NOT_A_PAGE.test(u.pathname);
}

const isHtml = (f: Fetched) =>
  !f.contentType ||
  /^(text\/html|application\/xhtml\+xml)/i.test(f.contentType) ||
  /^\s*</.test(f.body.toString('utf8', 0, 64));

interface CrawledPage extends ExtractedPage {
  url: string;
}

/** Fetches the start page and its same-site links breadth-first (see the file comment). */
export async function importWebsite(startUrl: string, options: WebsiteOptions, first?: Fetched): Promise<ImportTree> {
  const start = new URL(startUrl);
  const tally = new ImportTally();
  const seen = new Set<string>([pageKey(startUrl)]);
  const queue: string[] = [startUrl];
  const pages: CrawledPage[] = [];
  let discovered = 1;
  const report = () => {
    // Pages past the limit are never read: the total is what the crawl will read, so a finished
    // run's count is "n of n" (skipped pages do not use the limit up, so they widen it).
    tally.expect('pages', Math.min(discovered, options.maxPages + tally.counts.pages.skipped));
    return options.progress(tally.snapshot());
  };
  while (queue.length > 0 && pages.length < options.maxPages) {
    options.signal.throwIfAborted();
    const url = queue.shift()!;
    const page = await crawlOne(url, pages.length === 0, { startUrl, start, seen, options, tally, first });
    if (page) {
      pages.push(page);
      tally.done('pages');
      for (const link of page.links) {
        if (!sameSite(link, start)) continue; // external links stay links, never followed
        const key = pageKey(link);
        if (seen.has(key)) continue; // loops and repeats: each page once
        seen.add(key);
        // Fetched as linked (a site may need its trailing slash); known by its key.
        const next = new URL(link);
        next.hash = '';
        queue.push(next.href);
        discovered++;
      }
    }
    await report();
  }
  const read = tally.counts.pages.done + tally.counts.pages.skipped;
  tally.expect('pages', read);
  tally.unreadPast(
    discovered - read,
    queue[0] ?? startUrl,
    'PAGE_LIMIT',
    `${discovered - read} more pages found past the limit of ${options.maxPages} (FOLIO_IMPORT_MAX_PAGES)`,
  );
  const tree = pagesByUrlPath(pages.map((p) => p.url));
  const refs = refNamer(options.runId);
  const pageRefs = new Map<string, string>();
  for (const p of pages) pageRefs.set(pageKey(p.url), refs.page());
  const images = await downloadImages([...new Set(pages.flatMap((p) => p.images))], options, tally, refs);
  const out = pages.map((p, i) => {
    const markdown = contentToMarkdown(p.html, p.title, {
      link(href) {
        try {
          const u = new URL(href);
          const ref = pageRefs.get(pageKey(href));
          return ref ? `${ref}.md${u.hash}` : undefined;
        } catch {
          return undefined;
        }
      },
      // An image that could not be downloaded stays a link to where it was.
      image: (src) => images.refOf.get(src),
    });
    const parent = tree[i];
    return {
      ref: pageRefs.get(pageKey(p.url))!,
      ...(parent !== undefined ? { parent: pageRefs.get(pageKey(pages[parent]!.url))! } : {}),
      title: p.title || titleFromUrl(p.url),
      markdown,
      sourceURL: p.url,
    };
  });
  return tally.tree(out, images.files);
}

/** What every page of one crawl shares. */
interface Crawl {
  startUrl: string;
  start: URL;
  /** Keys of the pages queued or read (each page once). */
  seen: Set<string>;
  options: WebsiteOptions;
  tally: ImportTally;
  /** The start page, when the caller fetched it already. */
  first: Fetched | undefined;
}

/**
 * Fetches and reads one page of the crawl; answers undefined when it is skipped (counted in
 * `tally` with its reason). The first page is the import: without it there is nothing, so its
 * failures fail the run instead.
 */
async function crawlOne(url: string, isFirst: boolean, crawl: Crawl): Promise<CrawledPage | undefined> {
  const { startUrl, start, seen, options, tally, first } = crawl;
  let fetched: Fetched;
  try {
    fetched = url === startUrl && first ? first : await options.fetch(url);
  } catch (err) {
    if ((isFirst && url === startUrl) || options.signal.aborted) throw err;
    tally.skip('pages', url, 'FETCH_ERROR', failureDetail(err));
    return undefined;
  }
  // A redirect to a page already imported (or off the site) adds nothing.
  const finalKey = pageKey(fetched.url);
  if (fetched.url !== url && (!sameSite(fetched.url, start) || (seen.has(finalKey) && finalKey !== pageKey(url)))) {
    tally.skip('pages', url, 'REDIRECTED', `redirects to ${fetched.url}, off the site or a page already read`);
    return undefined;
  }
  seen.add(finalKey);
  if (!isHtml(fetched)) {
    if (isFirst) throw new ImportError('INVALID_SOURCE', `"${url}" is not an HTML page`);
    tally.skip('pages', url, 'NOT_A_PAGE', `not an HTML page (${fetched.contentType ?? 'no content type'})`);
    return undefined;
  }
  try {
    return { ...extractPage(fetched.body.toString('utf8'), fetched.url), url: fetched.url };
  } catch (err) {
    tally.skip('pages', url, 'UNREADABLE', `the page could not be read: ${(err as Error).message}`);
    return undefined;
  }
}

/** A title for a page that has none: its last path segment, words capitalized. */
export function titleFromUrl(url: string): string {
  const segment = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
  const words = segment
    .replace(/\.[a-z]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : new URL(url).host;
}
