import { createHash } from 'node:crypto';
import { siteLookOf, type SiteLook } from '../sites/customization';
import type { PublishedState } from './state';

/**
 * The customization of a published site as page parts: a small stylesheet
 * (primary color for both themes, font) inlined after the base one and
 * allowed by its own CSP hash, plus the look (title, logo, favicon, header
 * links) the layout renders. Computed once per site state.
 */
export interface PublishedLook extends SiteLook {
  /** Extra CSS ('' when nothing is customized). */
  css: string;
  /** The CSP source of `css` (`'sha256-…'`), or undefined without it. */
  cssHash?: string;
}

const AUTO_DARK = ':root:not([data-theme=light])';
const looks = new WeakMap<PublishedState, PublishedLook>();

/** A font name safe inside a CSS string (the API already limits it; this keeps the CSS intact regardless). */
const cssFont = (name: string) => `"${name.replace(/[^A-Za-z0-9 _-]/g, '')}"`;

function cssOf(look: SiteLook): string {
  let css = '';
  const c = look.primaryColor;
  if (c) {
    // The accent and its tinted background (current page in the tree, selected search result).
    const dark = `--accent:${c.dark};--accent-bg:color-mix(in srgb,${c.dark} 22%,#0f1115)`;
    css +=
      `:root{--accent:${c.light};--accent-bg:color-mix(in srgb,${c.light} 12%,#fff)}` +
      `[data-theme=dark]{${dark}}@media(prefers-color-scheme:dark){${AUTO_DARK}{${dark}}}`;
  }
  if (look.font) css += `body{font-family:${cssFont(look.font)},system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}`;
  if (look.logo && look.logo.light !== look.logo.dark)
    css +=
      `.logo-dark{display:none}[data-theme=dark] .logo-dark{display:block}[data-theme=dark] .logo-light{display:none}` +
      `@media(prefers-color-scheme:dark){${AUTO_DARK} .logo-dark{display:block}${AUTO_DARK} .logo-light{display:none}}`;
  if (!look.pagination) css += '.pager{display:none}';
  return css;
}

/** The look of a site state (memoized: a state object lives as long as the read cache keeps it). */
export function lookOf(state: PublishedState): PublishedLook {
  let look = looks.get(state);
  if (!look) {
    const base = siteLookOf(state.customization);
    const css = cssOf(base);
    look = {
      ...base,
      css,
      cssHash: css ? `'sha256-${createHash('sha256').update(css).digest('base64')}'` : undefined,
    };
    looks.set(state, look);
  }
  return look;
}
