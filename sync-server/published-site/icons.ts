/**
 * The published site's icons: Lucide's (the app's icon set, https://lucide.dev), inline SVG so
 * a page needs no request and no script for them, colored by the text color. Copied from the
 * `lucide` package's icon nodes rather than imported: the package holds every icon (~600 kB),
 * and a page uses six.
 */
const svg = (cls: string, body: string) =>
  `<svg class="${cls}" aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

export const ICON = {
  search: svg('i-search', '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>'),
  moon: svg('i-moon', '<path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z"/>'),
  sun: svg(
    'i-sun',
    '<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2m-7.07-14.07 1.41 1.41m11.32 11.32 1.41 1.41M2 12h2m16 0h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41"/>',
  ),
  /** Lucide's `globe`: the language switcher, as GitBook's translations dropdown shows it. */
  globe: svg(
    'i-globe',
    '<circle cx="12" cy="12" r="10"/><path d="M12 2a14.5 14.5 0 0 0 0 20 14.5 14.5 0 0 0 0-20"/><path d="M2 12h20"/>',
  ),
  chevronDown: svg('i-chevron', '<path d="m6 9 6 6 6-6"/>'),
  check: svg('i-check', '<path d="M20 6 9 17l-5-5"/>'),
};
