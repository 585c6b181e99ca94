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

/** The body HTML of a page, with its links rewritten for the site. */
export function renderMarkdown(body: SiteBody, fromPath: string, links: LinkRewriter): string {
  if (body.links.length === 0) return body.html;
  const placeholder = new RegExp(`${body.token}_(\\d+)_`, 'g');
  return body.html.replace(placeholder, (_, i: string) => {
    const href = body.links[Number(i)];
    return href === undefined ? '' : attributeValue(rewriteHref(href, fromPath, links));
  });
}
