import katex from 'katex';
import type { Element, ElementContent } from 'hast';

/**
 * TeX formulas (GitBook's `$$…$$`, as blocks and inline) rendered to MathML
 * on the server with KaTeX: browsers draw MathML natively, so pages need no
 * stylesheet, fonts or script for it. Runs in the parse pool after
 * sanitizing, on the text of the `math-display` / `math-inline` elements the
 * sanitizer let through. KaTeX builds its output from its own element set;
 * with `trust: false` no `\href`, `\url`, `\includegraphics` or HTML
 * extension produces a link or an attribute from the formula. Limits keep a
 * hostile page bounded: long formulas and formulas past the per-page count
 * stay as their source text.
 */

/** A formula longer than this is shown as its source. */
export const MAX_FORMULA_LENGTH = 4_000;
/** Formulas rendered per page; the rest are shown as their source. */
export const MAX_FORMULAS = 300;
/** TeX characters rendered per page (KaTeX takes about 1 ms per 1,000): past it, formulas show as source. */
export const MAX_TEX_PER_PAGE = 100_000;

const OPTIONS = {
  output: 'mathml',
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  maxSize: 50,
  maxExpand: 500,
} as const;

/** The MathML of `tex`, or undefined when it is too long (KaTeX shows its own errors in the output). */
export function texToMathml(tex: string, display: boolean): string | undefined {
  if (tex.length > MAX_FORMULA_LENGTH) return undefined;
  return katex.renderToString(tex, { ...OPTIONS, displayMode: display });
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/**
 * Replaces the text of each math element with its MathML (a `raw` node: the
 * tree must be serialized with `allowDangerousHtml`; nothing else in a
 * sanitized tree is raw).
 */
export function renderMath(mathElements: Element[]): void {
  let budget = MAX_TEX_PER_PAGE;
  for (const [i, el] of mathElements.entries()) {
    if (i >= MAX_FORMULAS) return;
    const classes = Array.isArray(el.properties.className) ? el.properties.className : [];
    const tex = el.children.map(textOf).join('').trim();
    budget -= tex.length;
    if (budget < 0) return;
    const mathml = texToMathml(tex, classes.includes('math-display'));
    if (mathml !== undefined) el.children = [{ type: 'raw', value: mathml } as unknown as ElementContent];
  }
}
