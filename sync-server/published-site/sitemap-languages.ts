import { languageTag } from '../../shared/languages';
import { defaultSiteSpaceIn, type VisibleSite } from './resolve';
import type { Alternate } from './language-switcher';
import { sectionVariants, siteSpaceLanguage } from './language-variants';
import type { SitePage } from './site-pages';

/**
 * The `hreflang` alternates of sitemap.xml (`<xhtml:link>`, as search engines
 * read them there): for each page, the same page path in its section's other
 * languages — the site spaces its language switcher offers (language-variants.ts)
 * — when two or more of them have it, plus `x-default` in the language of the
 * section's default site space. The same rule as the pages' own `<link
 * rel="alternate">` tags (language-links.ts), over the pages the sitemap lists.
 */
export function sitemapAlternates(
  visible: VisibleSite,
  pages: readonly SitePage[],
  absoluteBase: string,
): Map<SitePage, Alternate[]> {
  const byPath = new Map<string, SitePage>();
  for (const p of pages) if (p.page.noIndex !== true) byPath.set(`${p.siteSpace.id}\n${String(p.page.path)}`, p);
  const out = new Map<SitePage, Alternate[]>();
  for (const p of pages) {
    const { languages } = sectionVariants(visible, p.section, p.siteSpace);
    if (languages.length === 0) continue;
    const fallback = defaultSiteSpaceIn(visible, p.section);
    const defaultLanguage = fallback && siteSpaceLanguage(visible, fallback);
    const alternates: Alternate[] = [];
    let xDefault: Alternate | undefined;
    for (const { siteSpace, language } of languages) {
      const same = byPath.get(`${siteSpace.id}\n${String(p.page.path)}`);
      if (!same) continue;
      alternates.push({ hreflang: languageTag(language), href: absoluteBase + same.path });
      if (language === defaultLanguage) xDefault = { hreflang: 'x-default', href: absoluteBase + same.path };
    }
    if (alternates.length >= 2) out.set(p, xDefault ? [...alternates, xDefault] : alternates);
  }
  return out;
}
