import githubDark from 'shiki/themes/github-dark-default.mjs';
import githubLight from 'shiki/themes/github-light-default.mjs';

/**
 * The colors of highlighted code: each theme's token colors in a fixed order.
 * Highlighted tokens name their colors by index (`l3 d3`), and these rules
 * color them; only the theme data is loaded here, no grammar, so the site
 * stylesheet can be built on the main thread cheaply.
 */

export const normalize = (color: string | undefined) => (color ?? '').toLowerCase();

/** Every foreground color a theme can give a token, in a stable order. */
function palette(theme: typeof githubLight): string[] {
  const colors = new Set<string>();
  const fg = theme.colors?.['editor.foreground'];
  if (fg) colors.add(normalize(fg));
  for (const rule of theme.tokenColors ?? theme.settings ?? []) {
    const f = rule.settings?.foreground;
    if (f) colors.add(normalize(f));
  }
  return [...colors];
}
export const LIGHT_PALETTE = palette(githubLight);
export const DARK_PALETTE = palette(githubDark);

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};
const mix = (hex: string, toward: number, amount: number) =>
  '#' +
  [1, 3, 5]
    .map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16);
      return Math.round(c + (toward - c) * amount)
        .toString(16)
        .padStart(2, '0');
    })
    .join('');

/**
 * `color`, darkened (on a light background) or lightened (on a dark one) just enough for WCAG AA
 * contrast (4.5:1) on `background`: a theme's colors are not all readable on the site's code background.
 */
export function readable(color: string, background: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return color;
  const toward = luminance(background) > 0.5 ? 0 : 255;
  let out = color;
  for (let step = 1; contrast(out, background) < 4.6 && step <= 20; step++) out = mix(color, toward, step * 0.05);
  return out;
}

/** The code backgrounds of the site's light and dark themes (published-site/style.ts). */
export const CODE_BACKGROUND = { light: '#f6f8fa', dark: '#161b22' };

/** Rules giving token classes their colors, each selector prefixed by `scope` (e.g. the dark theme's). */
export function codeThemeCss(which: 'light' | 'dark', scope = ''): string {
  const palette = which === 'light' ? LIGHT_PALETTE : DARK_PALETTE;
  const letter = which === 'light' ? 'l' : 'd';
  return palette
    .map((c, i) => (i > 0 ? `${scope}.${letter}${i}{color:${readable(c, CODE_BACKGROUND[which])}}` : ''))
    .join('');
}
