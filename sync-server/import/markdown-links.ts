/**
 * Rewrites the targets of a markdown document's inline links and images (`[t](href)`,
 * `![a](href)`) outside code (fenced blocks and code spans are kept verbatim): the importer's
 * way to point links between imported files at the batch refs of their pages.
 */

import { INLINE_LINK, outsideCode } from '../../shared/markdown/outside-code';

/** `rewrite(href)` answers the new target, or undefined to keep the link as it is. */
export function rewriteMarkdownLinks(markdown: string, rewrite: (href: string) => string | undefined): string {
  const prose = (text: string) =>
    text.replace(INLINE_LINK, (whole, bang: string, label: string, rawHref: string, title: string) => {
      const href = rawHref.startsWith('<') ? rawHref.slice(1, -1) : rawHref;
      const to = rewrite(href);
      return to === undefined ? whole : `${bang}[${label}](${to}${title})`;
    });
  return outsideCode(markdown, prose);
}
