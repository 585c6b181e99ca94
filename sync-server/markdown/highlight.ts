import { createHighlighterCoreSync, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import bash from 'shiki/langs/bash.mjs';
import c from 'shiki/langs/c.mjs';
import cpp from 'shiki/langs/cpp.mjs';
import css from 'shiki/langs/css.mjs';
import diff from 'shiki/langs/diff.mjs';
import go from 'shiki/langs/go.mjs';
import html from 'shiki/langs/html.mjs';
import java from 'shiki/langs/java.mjs';
import javascript from 'shiki/langs/javascript.mjs';
import json from 'shiki/langs/json.mjs';
import jsx from 'shiki/langs/jsx.mjs';
import markdown from 'shiki/langs/markdown.mjs';
import python from 'shiki/langs/python.mjs';
import ruby from 'shiki/langs/ruby.mjs';
import rust from 'shiki/langs/rust.mjs';
import sql from 'shiki/langs/sql.mjs';
import tsx from 'shiki/langs/tsx.mjs';
import typescript from 'shiki/langs/typescript.mjs';
import yaml from 'shiki/langs/yaml.mjs';
import githubDark from 'shiki/themes/github-dark-default.mjs';
import githubLight from 'shiki/themes/github-light-default.mjs';
import { DARK_PALETTE, LIGHT_PALETTE, normalize } from './highlight-palette';

/**
 * Server-side code highlighting for published sites (Shiki, JavaScript regex
 * engine: no WebAssembly in the parse workers). Runs inside the parse pool,
 * under its time budget. Published pages allow no inline `style` attributes
 * (strict CSP), so tokens carry classes, not colors: `l<i>` names the light
 * color and `d<j>` the dark one, both indexes into the fixed palettes below,
 * whose rules the site stylesheet holds (highlight-palette.ts).
 */

const LANGS = [
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  html,
  java,
  javascript,
  json,
  jsx,
  markdown,
  python,
  ruby,
  rust,
  sql,
  tsx,
  typescript,
  yaml,
];

/** Highlighting stops past these sizes (plain code instead): the budget is for the whole page. */
export const HIGHLIGHT_LIMITS = { blockChars: 20_000, pageChars: 100_000 };

/**
 * One highlighter per theme: with both themes in one highlighter, Shiki (4.6, JavaScript engine) colors
 * some light-theme tokens wrongly (a whole `import` line as a keyword); alone, each theme is right.
 */
const THEMES = { 'github-light-default': githubLight, 'github-dark-default': githubDark } as const;
type ThemeName = keyof typeof THEMES;
const highlighters = new Map<ThemeName, HighlighterCore>();
function shiki(theme: ThemeName = 'github-light-default'): HighlighterCore {
  let h = highlighters.get(theme);
  if (!h) {
    h = createHighlighterCoreSync({
      themes: [THEMES[theme]],
      langs: LANGS.flat(),
      engine: createJavaScriptRegexEngine(),
    });
    highlighters.set(theme, h);
  }
  return h;
}

/** Loads the grammars now (worker start-up), so no page's time budget pays for it. */
export function warmHighlighter(): void {
  shiki('github-light-default');
  shiki('github-dark-default');
}

/** Whether a fence's language can be highlighted (aliases included). */
export function isHighlightable(lang: string): boolean {
  return shiki().getLoadedLanguages().includes(lang.toLowerCase());
}

/** One highlighted token: its text and class names. */
export interface CodeToken {
  text: string;
  className: string;
}

function classOf(light: string | undefined, dark: string | undefined): string {
  const names: string[] = [];
  const l = LIGHT_PALETTE.indexOf(normalize(light));
  const d = DARK_PALETTE.indexOf(normalize(dark));
  if (l > 0) names.push(`l${l}`);
  if (d > 0) names.push(`d${d}`);
  return names.join(' ');
}

/** The tokens of `code` in one theme: per line, [end offset in the line, color] pairs. */
function tokensIn(code: string, lang: string, theme: ThemeName): { end: number; color: string | undefined }[][] {
  return shiki(theme)
    .codeToTokens(code, { lang, theme })
    .tokens.map((line) => {
      let end = 0;
      return line.map((t) => ({ end: (end += t.content.length), color: t.color }));
    });
}

/**
 * The lines of `code` as tokens with palette classes, or undefined when `lang` is unknown. Each theme
 * tokenizes on its own (Shiki's multi-theme tokens mix up the light colors here) and the two token
 * lists are cut at the union of their boundaries.
 */
export function highlightCode(code: string, lang: string): CodeToken[][] | undefined {
  const name = lang.toLowerCase();
  if (!isHighlightable(name)) return undefined;
  const light = tokensIn(code, name, 'github-light-default');
  const dark = tokensIn(code, name, 'github-dark-default');
  const lines = code.split(/\r?\n/);
  return lines.map((text, n) => {
    const l = light[n] ?? [];
    const d = dark[n] ?? [];
    const out: CodeToken[] = [];
    let i = 0;
    let j = 0;
    let start = 0;
    while (start < text.length && (i < l.length || j < d.length)) {
      const end = Math.min(l[i]?.end ?? text.length, d[j]?.end ?? text.length);
      if (end <= start) break;
      const className = classOf(l[i]?.color, d[j]?.color);
      const last = out.at(-1);
      if (last && last.className === className) last.text += text.slice(start, end);
      else out.push({ text: text.slice(start, end), className });
      start = end;
      if (l[i]?.end === end) i++;
      if (d[j]?.end === end) j++;
    }
    if (start < text.length) out.push({ text: text.slice(start), className: '' });
    return out;
  });
}
