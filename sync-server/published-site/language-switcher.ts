import { languageTag, nativeLanguageName } from '../../shared/languages';
import { ICON } from './icons';
import { isRightToLeft } from './language-variants';
import { escapeHtml } from './markdown';

/**
 * The language side of a published page: the header's language switcher (a
 * compact menu like GitBook's translations dropdown: a globe and the current
 * language's own name, opening onto every language by its own name), the
 * `<html>` attributes of the page's language, and its `hreflang` alternates.
 * The menu is a <details>, so it opens without scripts; site-script.ts only
 * closes it on Escape or a click elsewhere. Each entry carries `lang` (its
 * name is read in that language) and `hreflang` (where it leads).
 */

/** An entry of the language switcher. */
export interface LanguageLink {
  /** The language code (shared/languages.ts). */
  code: string;
  /** The same page in that language, else that language's first page. */
  href: string;
  /** The language being read. */
  current: boolean;
}

/** A `<link rel="alternate">`: the same page in another language, or `x-default`. */
export interface Alternate {
  hreflang: string;
  href: string;
}

/** The attributes of `<html>` for a page in `code`: its BCP 47 tag, and `dir="rtl"` for Arabic and Hebrew. */
export function htmlLanguage(code: string): string {
  return `lang="${escapeHtml(languageTag(code))}"${isRightToLeft(code) ? ' dir="rtl"' : ''}`;
}

/** The `<link rel="alternate" hreflang>` tags of `alternates`. */
export function alternateLinks(alternates: readonly Alternate[]): string {
  return alternates
    .map((a) => `<link rel="alternate" hreflang="${escapeHtml(a.hreflang)}" href="${escapeHtml(a.href)}">`)
    .join('');
}

/** The header's language switcher ('' with fewer than two languages). */
export function languageSwitcher(links: readonly LanguageLink[]): string {
  if (links.length < 2) return '';
  const current = links.find((l) => l.current) ?? links[0]!;
  const tag = (code: string) => escapeHtml(languageTag(code));
  const items = links
    .map(
      (l) =>
        `<li><a href="${escapeHtml(l.href)}" lang="${tag(l.code)}" hreflang="${tag(l.code)}"${l.current ? ' aria-current="page"' : ''}>` +
        `<span>${escapeHtml(nativeLanguageName(l.code))}</span>${l.current ? ICON.check : ''}</a></li>`,
    )
    .join('');
  return (
    `<nav class="langs" aria-label="Languages" data-testid="language-switcher"><details>` +
    `<summary>${ICON.globe}<span class="lang-name" lang="${tag(current.code)}">${escapeHtml(nativeLanguageName(current.code))}</span>${ICON.chevronDown}</summary>` +
    `<ul>${items}</ul></details></nav>`
  );
}

/**
 * The switcher's styles. The menu opens under the button, aligned with the
 * header's far edge (right, or left on right-to-left pages). On phones the
 * button shows the globe alone (the name stays for screen readers), as
 * GitBook's does, so the header keeps room for the site's title.
 */
export const LANGUAGE_STYLE =
  `.langs{position:relative}.langs details{position:relative}` +
  `.langs summary{display:flex;align-items:center;gap:.4rem;min-height:2.1rem;padding:.35rem .6rem;font-size:.9rem;color:var(--fg2);background:var(--bg2);border:1px solid var(--line);border-radius:.5rem;cursor:pointer;list-style:none;white-space:nowrap;user-select:none}` +
  `.langs summary::-webkit-details-marker{display:none}.langs summary:hover,.langs details[open] summary{color:var(--fg)}.langs details[open] .i-chevron{transform:rotate(180deg)}` +
  `.langs ul{position:absolute;inset-inline-end:0;top:calc(100% + .35rem);z-index:25;min-width:12rem;margin:0;padding:.35rem;list-style:none;background:var(--bg);border:1px solid var(--line);border-radius:.6rem;box-shadow:0 8px 24px #0003}` +
  `.langs a{display:flex;align-items:center;justify-content:space-between;gap:.75rem;padding:.4rem .6rem;border-radius:.35rem;color:var(--fg);text-decoration:none;font-size:.94rem}` +
  `.langs a:hover{background:var(--bg2)}.langs a[aria-current]{color:var(--accent);background:var(--accent-bg);font-weight:600}` +
  `@media(max-width:599px){.langs summary{padding:.35rem .5rem}.langs .lang-name{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}}`;
