import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import { AnchorSlugger, parseMarkdown, plainText, resolveLink, type LinkTargets } from '../../shared/markdown';

/**
 * A page's markdown as HTML for the published site. Raw HTML in markdown is
 * dropped (mdast-util-to-hast without `allowDangerousHtml`), then the tree
 * goes through hast-util-sanitize with GitHub's schema: no scripts, event
 * handlers, `javascript:` URLs, styles or forms survive, and ids are
 * prefixed (`user-content-`) so content cannot clobber DOM globals.
 * Links follow Folio's convention (shared/markdown/links.ts) and are
 * rewritten to the site's page URLs and to file download URLs.
 */

/** How links of this page become URLs. */
export interface LinkRewriter {
  targets: LinkTargets;
  /** URL of a page of the same space on the site (anchor without '#'). */
  pageUrl(pageId: string, anchor?: string): string | undefined;
  /** Download URL of a file of the space. */
  fileUrl(fileId: string): string | undefined;
}

const CLOBBER_PREFIX = defaultSchema.clobberPrefix ?? 'user-content-';
const SCHEMA: Schema = defaultSchema;

const anchorHref = (anchor: string) => `#${CLOBBER_PREFIX}${encodeURIComponent(anchor)}`;

function rewriteHref(href: string, fromPath: string, links: LinkRewriter): string {
  const resolved = resolveLink(fromPath, href, links.targets);
  switch (resolved.kind) {
    case 'page':
      return links.pageUrl(resolved.page, resolved.anchor) ?? href;
    case 'file':
      return links.fileUrl(resolved.file) ?? href;
    case 'anchor':
      return anchorHref(resolved.anchor);
    default:
      return href;
  }
}

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

/** Renders page markdown to sanitized HTML, with links rewritten for the site. */
export function renderMarkdown(markdown: string, fromPath: string, links: LinkRewriter): string {
  const mdast = parseMarkdown(markdown);
  const headingTexts: string[] = [];
  const collect = (n: { type: string; children?: unknown[] }) => {
    if (n.type === 'heading') headingTexts.push(plainText(n as Parameters<typeof plainText>[0]));
    for (const c of n.children ?? []) collect(c as { type: string; children?: unknown[] });
  };
  collect(mdast);
  const hast = toHast(mdast) as HastRoot;
  addHeadingIds(hast, headingTexts);
  walk(hast, (el) => {
    if (el.tagName === 'a' && typeof el.properties.href === 'string')
      el.properties.href = rewriteHref(el.properties.href, fromPath, links);
    if (el.tagName === 'img' && typeof el.properties.src === 'string')
      el.properties.src = rewriteHref(el.properties.src, fromPath, links);
  });
  return toHtml(sanitize(hast, SCHEMA) as HastRoot);
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
