import { extractPage, contentToMarkdown, type ExtractedPage } from './html-content';
import { pagesByUrlPath } from './url-tree';
import { ImportError, type ImportedFile, type ImportProgress, type ImportTree, refNamer } from './types';

/**
 * A website import: the start page, then same-site links breadth-first up to `maxPages` pages;
 * each page's main content as markdown, its images downloaded as files, links between imported
 * pages rewritten to those pages, the tree taken from the URL paths (url-tree.ts).
 */

/** A fetched resource (the caller's fetch goes through the outbound fetcher). */
export interface Fetched {
  url: string;
  contentType: string | undefined;
  body: Buffer;
}

export interface WebsiteOptions {
  runId: string;
  maxPages: number;
  /** Largest image kept as a file (bytes); a larger one stays a link to its URL. */
  maxImageBytes: number;
  /** Images downloaded at most (a page full of icons must not make a run of thousands of files). */
  maxImages: number;
  fetch(url: string): Promise<Fetched>;
  signal: AbortSignal;
  progress(p: ImportProgress): Promise<void>;
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
  const seen = new Set<string>([pageKey(startUrl)]);
  const queue: string[] = [startUrl];
  const pages: CrawledPage[] = [];
  const progress: ImportProgress = { found: 1, done: 0, skipped: 0 };
  while (queue.length > 0 && pages.length < options.maxPages) {
    options.signal.throwIfAborted();
    const url = queue.shift()!;
    let fetched: Fetched;
    try {
      fetched = url === startUrl && first ? first : await options.fetch(url);
    } catch (err) {
      // The start page is the import: without it there is nothing. Any other page is skipped.
      if (pages.length === 0 && url === startUrl) throw err;
      progress.skipped++;
      await options.progress(progress);
      continue;
    }
    // A redirect to a page already imported (or off the site) adds nothing.
    const finalKey = pageKey(fetched.url);
    if (fetched.url !== url && (!sameSite(fetched.url, start) || (seen.has(finalKey) && finalKey !== pageKey(url)))) {
      progress.skipped++;
      continue;
    }
    seen.add(finalKey);
    if (!isHtml(fetched)) {
      if (pages.length === 0) throw new ImportError('INVALID_SOURCE', `"${url}" is not an HTML page`);
      progress.skipped++;
      continue;
    }
    let page: ExtractedPage;
    try {
      page = extractPage(fetched.body.toString('utf8'), fetched.url);
    } catch {
      progress.skipped++;
      continue;
    }
    pages.push({ ...page, url: fetched.url });
    progress.done++;
    for (const link of page.links) {
      if (!sameSite(link, start)) continue; // external links stay links, never followed
      const key = pageKey(link);
      if (seen.has(key)) continue; // loops and repeats: each page once
      seen.add(key);
      // Fetched as linked (a site may need its trailing slash); known by its key.
      const next = new URL(link);
      next.hash = '';
      queue.push(next.href);
      progress.found++;
    }
    await options.progress(progress);
  }
  // Pages found but past the limit are counted among what was found, not imported.
  const tree = pagesByUrlPath(pages.map((p) => p.url));
  const refs = refNamer(options.runId);
  const pageRefs = new Map<string, string>();
  for (const p of pages) pageRefs.set(pageKey(p.url), refs.page());
  const files: ImportedFile[] = [];
  const imageRefs = new Map<string, string | null>();
  for (const image of new Set(pages.flatMap((p) => p.images))) {
    if (files.length >= options.maxImages) break;
    options.signal.throwIfAborted();
    progress.found++;
    const file = await fetchImage(image, options).catch(() => undefined);
    if (!file) {
      imageRefs.set(image, null);
      progress.skipped++;
      continue;
    }
    const ref = refs.file();
    files.push({ ref, ...file });
    imageRefs.set(image, ref);
    progress.done++;
    await options.progress(progress);
  }
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
      image: (src) => imageRefs.get(src) ?? undefined,
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
  return { pages: out, files, total: progress.found, skipped: progress.skipped };
}

async function fetchImage(url: string, options: WebsiteOptions): Promise<Omit<ImportedFile, 'ref'> | undefined> {
  const res = await options.fetch(url);
  if (res.body.length === 0 || res.body.length > options.maxImageBytes) return undefined;
  const contentType = res.contentType?.split(';')[0]?.trim().toLowerCase();
  if (!contentType?.startsWith('image/')) return undefined;
  return { name: fileName(res.url, contentType), contentType, bytes: res.body };
}

function fileName(url: string, contentType: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '-');
  if (last && last !== '.' && last !== '..') return last.slice(-100);
  return `image.${contentType.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin'}`;
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
