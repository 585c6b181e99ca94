import { randomBytes } from 'node:crypto';
import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import { AnchorSlugger, parseMarkdown, plainText } from '../../shared/markdown';
import { degradedNote, type Degradation } from '../../shared/markdown/degraded';

/**
 * A page's markdown as the sanitized HTML body of a published page. Raw HTML
 * in markdown is dropped (mdast-util-to-hast without `allowDangerousHtml`),
 * then the tree goes through hast-util-sanitize with GitHub's schema: no
 * scripts, event handlers, `javascript:` URLs, styles or forms survive, and
 * ids are prefixed (`user-content-`) so content cannot clobber DOM globals.
 *
 * This is the expensive part (parsing), done once per page text in the parse
 * pool. What depends on where the page is served (link targets, which follow
 * the site's URLs) is left as placeholders: each surviving `href`/`src` value
 * is replaced by `<token>_<i>_` and listed in `links`, for the published site
 * to substitute per request without parsing (published-site/markdown.ts).
 * Links are rewritten after sanitizing: the sanitizer has already dropped
 * unsafe URLs, and rewriting only ever produces the site's own page, anchor
 * and file URLs.
 */
export interface SiteBody {
  /** The body HTML, with link placeholders. */
  html: string;
  /** Random per body (letters and digits): content written before it was drawn cannot forge a placeholder. */
  token: string;
  /** The original `href`/`src` of each placeholder, in order. */
  links: string[];
  /** Set when the page is shown as plain text (see shared/markdown/degraded.ts). */
  degraded?: Degradation;
}

const SCHEMA: Schema = defaultSchema;

function walk(node: HastNodes, fn: (el: Element) => void): void {
  if (node.type === 'element') fn(node);
  if ('children' in node) for (const child of node.children) walk(child as HastNodes, fn);
}

/** Heading ids as the app and the API compute them (AnchorSlugger over the heading's text). */
function addHeadingIds(tree: HastRoot, headingTexts: string[]): void {
  const slugger = new AnchorSlugger();
  let i = 0;
  walk(tree, (el) => {
    if (/^h[1-6]$/.test(el.tagName)) el.properties.id = slugger.slug(headingTexts[i++] ?? '');
  });
}

/** Parses and renders `markdown` (run it in the parse pool). */
export function renderSiteBody(markdown: string): SiteBody {
  const mdast = parseMarkdown(markdown);
  const headingTexts: string[] = [];
  const collect = (n: { type: string; children?: unknown[] }) => {
    if (n.type === 'heading') headingTexts.push(plainText(n as Parameters<typeof plainText>[0]));
    for (const c of n.children ?? []) collect(c as { type: string; children?: unknown[] });
  };
  collect(mdast);
  const hast = toHast(mdast) as HastRoot;
  addHeadingIds(hast, headingTexts);
  const clean = sanitize(hast, SCHEMA) as HastRoot;
  const token = `folio${randomBytes(12).toString('hex')}`;
  const links: string[] = [];
  const placeholder = (value: string) => `${token}_${links.push(value) - 1}_`;
  walk(clean, (el) => {
    if (el.tagName === 'a' && typeof el.properties.href === 'string')
      el.properties.href = placeholder(el.properties.href);
    if (el.tagName === 'img' && typeof el.properties.src === 'string')
      el.properties.src = placeholder(el.properties.src);
  });
  return { html: toHtml(clean), token, links };
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page as preformatted text under a note, marked with the `folio-degraded` class. No parsing. */
export function degradedSiteBody(markdown: string, degraded: Degradation): SiteBody {
  const html =
    `<div class="folio-degraded" data-degraded="${degraded.reason}">` +
    `<p class="folio-degraded-note">${escapeHtml(degradedNote(degraded))}</p>` +
    `<pre class="folio-degraded-text">${escapeHtml(markdown)}</pre></div>`;
  return { html, token: '', links: [], degraded };
}
