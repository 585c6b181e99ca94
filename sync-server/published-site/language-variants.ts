import type { SectionRow, SiteSpaceRow } from '../store/sites';
import { siteSpacesIn, type VisibleSite } from './resolve';

/**
 * Which site spaces of a section are translations of each other (GitBook's
 * "language variants") and which are versions of one language. A section
 * offers a language switcher when its visible site spaces are in at least two
 * languages; a space without a `language` counts as English, as GitBook's
 * sites count it (and as `<html lang>` has always said).
 *
 * Mixed sections (say `en v1`, `en v2`, `fr`) get both switchers, split the
 * way GitBook splits them: the language switcher names each language once —
 * the site space being read for its own language, the first site space in
 * site order for every other one — and the version switcher keeps the site
 * spaces of the language being read (shown only when there are two or more).
 * The reader changes language in one place and version in the other, and
 * neither lists the same choice twice.
 */

/** A site space offered in the language switcher, with its language code. */
export interface LanguageVariant {
  siteSpace: SiteSpaceRow;
  language: string;
}

/** How a section's site spaces are offered to a reader of `current`. */
export interface SectionVariants {
  /** Site spaces of the current language (every site space when the section has one language). */
  versions: SiteSpaceRow[];
  /** One site space per language, in site order; empty when the section has one language. */
  languages: LanguageVariant[];
  /** The language of the site space being read. */
  language: string;
}

/** Languages written right to left, of GitBook's TranslationLanguage codes (shared/languages.ts). */
const RIGHT_TO_LEFT = new Set(['ar', 'he']);

/** Whether a language code is written right to left (`dir="rtl"`). */
export function isRightToLeft(code: string): boolean {
  return RIGHT_TO_LEFT.has(code);
}

/** The language of a site space's space ('en' when it has none). */
export function siteSpaceLanguage(visible: VisibleSite, siteSpace: SiteSpaceRow): string {
  return visible.tree.spaces.get(siteSpace.space_id)?.language || 'en';
}

/** How the visible site spaces of `section` are offered to a reader of `current`. */
export function sectionVariants(
  visible: VisibleSite,
  section: SectionRow | undefined,
  current: SiteSpaceRow,
): SectionVariants {
  const all = siteSpacesIn(visible, section);
  const language = siteSpaceLanguage(visible, current);
  const byLanguage = new Map<string, SiteSpaceRow>();
  for (const siteSpace of all) {
    const code = siteSpaceLanguage(visible, siteSpace);
    // The reader's own language is the site space being read; any other, its first site space.
    if (code === language) byLanguage.set(code, current);
    else if (!byLanguage.has(code)) byLanguage.set(code, siteSpace);
  }
  if (byLanguage.size < 2) return { versions: all, languages: [], language };
  return {
    versions: all.filter((s) => siteSpaceLanguage(visible, s) === language),
    languages: [...byLanguage].map(([code, siteSpace]) => ({ siteSpace, language: code })),
    language,
  };
}
