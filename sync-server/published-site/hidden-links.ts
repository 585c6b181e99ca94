import { resolveLink, type LinkTargets, type MarkdownLink } from '../../shared/markdown';
import type { MarkdownService } from '../markdown/service';
import type { HiddenPages } from './page-audience';

/**
 * Links to pages a visitor may not read (page conditions, page-audience.ts)
 * lose their target and keep their text, in the page HTML, its `.md` copy
 * and llms-full.txt. Left alone, such a link would still name the hidden page
 * (`/pages/<id>`, its path) to a visitor who must not know it exists, and lead
 * to a 404 that confirms it. A link is hidden when it resolves, in the whole
 * revision, to a page the visitor's view left out: links that are broken for
 * everyone are not this module's business and stay as they are.
 */

/** Whether an href written in the page at `fromPath` leads to a page hidden from this visitor. */
export type HiddenLinkTest = (href: string) => boolean;

/**
 * The test for links of the page at `fromPath`: `hiddenIds` are the pages left
 * out (HiddenPages.ids), `targets` the whole revision's (linkTargetsOf(hidden.full)).
 */
export function hiddenLinkTest(hiddenIds: ReadonlySet<string>, targets: LinkTargets, fromPath: string): HiddenLinkTest {
  return (href) => {
    const resolved = resolveLink(fromPath, href, targets);
    return resolved.kind === 'page' && hiddenIds.has(resolved.page);
  };
}

/** Markdown-escapes text put back where a link was, so it reads as the same words and makes no markup. */
const plain = (text: string) => text.replace(/[\\`*_[\]<>&|~!]/g, '\\$&');

/** `[label]: url "title"`: a link reference definition (only its first line: the URL is on it). */
const DEFINITION = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(?:<([^>\n]*)>|(\S+)).*$/gm;
/**
 * An inline link written in the canonical `/pages/…` form, found without a
 * parse: for a page shown as plain text (too complex to parse, no link list),
 * and whatever else the parsed list does not cover (code spans, blocks).
 */
const CANONICAL_INLINE = /\[([^[\]\n]*)\]\([ \t]*<?(\/pages\/[^\s)>]*)>?(?:[ \t]+[^)\n]*)?\)/g;

/**
 * `markdown` with every link that `isHidden` names replaced by its text, and
 * the reference definitions of hidden targets removed. `links` is the page's
 * parsed link list (MarkdownService.analysis), whose source positions say
 * where each link is.
 */
export function withoutHiddenLinks(markdown: string, links: readonly MarkdownLink[], isHidden: HiddenLinkTest): string {
  let out = '';
  let at = 0;
  for (const link of links) {
    // Images inside a hidden link go with it (its text stands for both): skip what is already replaced.
    if (link.image || link.position.start < at || !isHidden(link.href)) continue;
    out += markdown.slice(at, link.position.start) + plain(link.text);
    at = link.position.end;
  }
  out += markdown.slice(at);
  return out
    .replace(DEFINITION, (line, angled: string | undefined, bare: string | undefined) =>
      isHidden(angled ?? bare ?? '') ? '' : line,
    )
    .replace(CANONICAL_INLINE, (whole, label: string, href: string) => (isHidden(href) ? label : whole));
}

/**
 * What a visitor reads of a page's markdown (its `.md` copy, its part of
 * llms-full.txt): the text itself when nothing is hidden from them, else
 * without the links to hidden pages (the analysis is cached per text).
 */
export async function visibleMarkdown(
  markdown: string,
  fromPath: string,
  hidden: { pages: HiddenPages; targets: LinkTargets } | undefined,
  service: Pick<MarkdownService, 'analysis'>,
): Promise<string> {
  if (!hidden || !markdown.includes(']')) return markdown;
  const { links } = await service.analysis(markdown);
  return withoutHiddenLinks(markdown, links, hiddenLinkTest(hidden.pages.ids, hidden.targets, fromPath));
}

/** A plain-text (degraded) page body: its canonical links to hidden pages as their text (HTML-escaped already). */
export function degradedWithoutHiddenLinks(html: string, isHidden: HiddenLinkTest): string {
  return html.replace(CANONICAL_INLINE, (whole, label: string, href: string) => (isHidden(href) ? label : whole));
}
