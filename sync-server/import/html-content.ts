import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';

/**
 * A web page's main content, and its conversion to markdown. Readability (Firefox's reader view)
 * finds the content, on linkedom's DOM (small, no browser: jsdom would be ten times the size);
 * turndown with Joplin's maintained GFM plugin writes it as markdown (tables, strikethrough,
 * fenced code with the language of `language-*` classes).
 */

/** Tags never worth converting (they carry no text of the page, or run code). */
const DROPPED = 'script,style,noscript,iframe,object,embed,template,form,button,select,textarea,svg,canvas';

/** Navigation, sidebars and footers: the same on every page of a site, so never part of one. */
const CHROME = 'nav,aside,footer,[role=navigation],[role=contentinfo],body > header';

export interface ExtractedPage {
  title: string;
  /** The main content as HTML, every link and image URL made absolute. */
  html: string;
  /** Absolute URLs of the links in the whole page (navigation included: that is how a site is crawled). */
  links: string[];
  /** Absolute URLs of the images of the main content. */
  images: string[];
}

const absolute = (href: string | null, base: string): string | undefined => {
  if (!href) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
};

/** Reads a page: its title, main content and links (see ExtractedPage). */
export function extractPage(html: string, pageUrl: string): ExtractedPage {
  const { document } = parseHTML(html);
  for (const el of Array.from(document.querySelectorAll(DROPPED))) el.remove();
  const links: string[] = [];
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const url = absolute(a.getAttribute('href'), pageUrl);
    if (url) {
      a.setAttribute('href', url);
      links.push(url);
    }
  }
  for (const img of Array.from(document.querySelectorAll('img'))) {
    const url = absolute(img.getAttribute('src'), pageUrl);
    if (url) img.setAttribute('src', url);
    else img.remove();
  }
  // Site chrome around the content: its links were collected above (crawling follows them), its text is not the page's.
  for (const el of Array.from(document.querySelectorAll(CHROME))) el.remove();
  const heading = document.querySelector('h1')?.textContent?.trim();
  const docTitle = document.querySelector('title')?.textContent?.trim();
  // A page that marks its content (main, article) says best what it is; otherwise Readability guesses.
  const marked = document.querySelector('main, article, [role=main]');
  let content = (marked ?? document.body)?.innerHTML ?? '';
  let title = heading || docTitle || '';
  if (!marked) {
    try {
      // Readability takes the document apart: a copy, so a failure leaves the body to fall back on.
      const { document: copy } = parseHTML(document.toString());
      // charThreshold 0: documentation pages are often short, and a short page is still the page.
      const article = new Readability(copy as unknown as Document, { charThreshold: 0, keepClasses: true }).parse();
      if (article?.content && article.textContent?.trim()) content = article.content;
      title = heading || article?.title?.trim() || docTitle || '';
    } catch {
      // Readability gave up on this markup: the body is the content.
    }
  }
  const { document: main } = parseHTML(`<!doctype html><html><body>${content}</body></html>`);
  const images = Array.from(main.querySelectorAll('img'))
    .map((img) => img.getAttribute('src'))
    .filter((src): src is string => !!src && /^https?:/i.test(src));
  return { title: title.slice(0, 256), html: content, links, images };
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  service.use(gfm);
  return service;
}

/**
 * The markdown of a page's content HTML: links and images are rewritten by `rewrite` first (an
 * imported page becomes its ref, a downloaded image its file ref; undefined keeps the URL; null
 * drops an image), and the page's own title heading is left out (the title is the page's field).
 */
export function contentToMarkdown(
  html: string,
  title: string,
  rewrite: { link(url: string): string | undefined; image(url: string): string | null | undefined },
): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const to = rewrite.link(a.getAttribute('href')!);
    if (to !== undefined) a.setAttribute('href', to);
  }
  for (const img of Array.from(document.querySelectorAll('img'))) {
    const to = rewrite.image(img.getAttribute('src') ?? '');
    if (to === null) img.remove();
    else if (to !== undefined) img.setAttribute('src', to);
  }
  // Readability turns the page's h1 into an h2: either, when it repeats the title, is the title.
  const first = document.querySelector('h1, h2');
  if (first && first.textContent?.trim() === title) first.remove();
  return turndown()
    .turndown(document.body.innerHTML)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
