import { toHtml } from 'hast-util-to-html';
import { resolveLink, type LinkTargets } from '../../shared/markdown';
import { escapeHtml, type SiteBody } from '../markdown/site-html';

export { escapeHtml };

/**
 * A page's body HTML for the published site, from the sanitized HTML the
 * parse pool made of its markdown (sync-server/markdown/site-html.ts): links
 * follow Folio's convention (shared/markdown/links.ts) and become the site's
 * page URLs and file download URLs. Nothing is parsed here, so serving a page
 * under another URL spelling costs a string substitution, not a parse.
 */

/** How links of this page become URLs. */
export interface LinkRewriter {
  targets: LinkTargets;
  /** URL of a page of the same space on the site (anchor without '#'). */
  pageUrl(pageId: string, anchor?: string): string | undefined;
  /** Download URL of a file of the space. */
  fileUrl(fileId: string): string | undefined;
  /** Whether an href leads to a page hidden from this visitor: its link is then rendered as its text (hidden-links.ts). */
  isHidden?: (href: string) => boolean;
}

/** Heading ids are the plain anchors (see sync-server/markdown/site-html.ts), as search results say. */
const anchorHref = (anchor: string) => `#${encodeURIComponent(anchor)}`;

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

const OPEN = '<a href="';
const CLOSE = '"></a>';

/** An attribute value encoded exactly as hast-util-to-html encodes it (so output matches rendering in one pass). */
function attributeValue(value: string): string {
  const html = toHtml({ type: 'element', tagName: 'a', properties: { href: value }, children: [] });
  return html.startsWith(OPEN) && html.endsWith(CLOSE) ? html.slice(OPEN.length, -CLOSE.length) : escapeHtml(value);
}

/** One attribute as hast-util-to-html writes it: a name, and a double-quoted value (`"` in it is a reference) or none. */
const ATTRIBUTE = String.raw`\s+[^\s"'<>/=]+(?:="[^"]*")?`;

/**
 * `html` with the `<a>` elements whose href is placeholder number `i` for an
 * `i` in `drop` replaced by their content. Anchors never nest in the body (the
 * markdown grammar makes none, the sanitizer keeps none), so an anchor ends
 * at the first `</a>` after it.
 */
function unwrapAnchors(html: string, token: string, drop: ReadonlySet<number>): string {
  const anchor = new RegExp(
    `<a(?:${ATTRIBUTE})*?\\s+href="${token}_(\\d+)_"(?:${ATTRIBUTE})*\\s*>([\\s\\S]*?)</a>`,
    'g',
  );
  return html.replace(anchor, (whole, i: string, content: string) => (drop.has(Number(i)) ? content : whole));
}

/** The body HTML of a page, with its links rewritten for the site (and links to hidden pages as their text). */
export function renderMarkdown(body: SiteBody, fromPath: string, links: LinkRewriter): string {
  if (body.links.length === 0) return body.html;
  let html = body.html;
  const drop = new Set<number>();
  if (links.isHidden) {
    body.links.forEach((href, i) => {
      if (links.isHidden!(href)) drop.add(i);
    });
    if (drop.size > 0) html = unwrapAnchors(html, body.token, drop);
  }
  const placeholder = new RegExp(`${body.token}_(\\d+)_`, 'g');
  return html.replace(placeholder, (_, i: string) => {
    const href = body.links[Number(i)];
    // A hidden page's link left (an image's source): it names nothing.
    if (href === undefined || drop.has(Number(i))) return '';
    return attributeValue(rewriteHref(href, fromPath, links));
  });
}
