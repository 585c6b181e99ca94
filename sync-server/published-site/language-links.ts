import { languageTag } from '../../shared/languages';
import type { StoredPage } from '../docs/revision-store';
import type { RevisionView } from '../docs/revision-view';
import type { SiteSpaceRow } from '../store/sites';
import type { Alternate, LanguageLink } from './language-switcher';
import type { LanguageVariant } from './language-variants';

/**
 * Where each language of the switcher leads from the page being read.
 * Translations keep the source's page tree, slugs included, so the same page
 * sits at the same path in every language: a language's entry is the page at
 * this page's path in that language's revision (as its visitor may read it),
 * else — a page not translated yet, or a not-found page — that language's
 * first page. The entries that found the same page are its `hreflang`
 * alternates (the page itself included, as search engines ask), when there
 * are two or more; `x-default` is the entry in the language of the section's
 * default site space (the page a reader with no matching language gets).
 */

export interface LanguageLinksInput {
  languages: readonly LanguageVariant[];
  /** Each language variant's view, by site space id. */
  views: ReadonlyMap<string, RevisionView>;
  /** The site space being read. */
  current: SiteSpaceRow;
  /** The path of the page being read; undefined on a not-found page. */
  pagePath?: string;
  /** The language of the section's default site space. */
  defaultLanguage?: string;
  /** The URL of `page` in `siteSpace` (its root when `page` is undefined). */
  hrefIn(siteSpace: SiteSpaceRow, view: RevisionView | undefined, page?: StoredPage): string;
  /** `href` as an absolute URL (alternates must be absolute). */
  absolute(href: string): string;
}

/** The switcher's entries and the page's alternates (none without language variants). */
export function languageLinks(input: LanguageLinksInput): { links: LanguageLink[]; alternates: Alternate[] } {
  const links: LanguageLink[] = [];
  const alternates: Alternate[] = [];
  let fallback: Alternate | undefined;
  for (const { siteSpace, language } of input.languages) {
    const view = input.views.get(siteSpace.id);
    const found = input.pagePath === undefined ? undefined : view?.pagesByPath.get(input.pagePath);
    // An external link entry has no page of its own to show.
    const page = found && found.type !== 'link' ? found : undefined;
    const href = input.hrefIn(siteSpace, view, page);
    links.push({ code: language, href, current: siteSpace.id === input.current.id });
    if (!page) continue;
    const alternate = { hreflang: languageTag(language), href: input.absolute(href) };
    alternates.push(alternate);
    if (language === input.defaultLanguage) fallback = { hreflang: 'x-default', href: alternate.href };
  }
  // A page in one language only has no alternates to name.
  if (alternates.length < 2) return { links, alternates: [] };
  if (fallback) alternates.push(fallback);
  return { links, alternates };
}
