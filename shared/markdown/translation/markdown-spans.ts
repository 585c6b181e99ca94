import type { Nodes, Parent, PhrasingContent } from 'mdast';
import type { Span } from './segment';

/**
 * What must not be translated inside one text block (a paragraph, a heading, a table cell): the
 * spans the parser finds (code, HTML tags, link targets, images, autolinks, footnote references,
 * emphasis and link delimiters, hard breaks) and those it does not know (GitBook's `{% … %}` tags,
 * `$…$` and `$$…$$` math, escapes, character references, soft line breaks with their prefixes).
 */

type Range = { start: number; end: number };

const startOf = (n: Nodes | Parent) => n.position?.start.offset ?? 0;
const endOf = (n: Nodes | Parent) => n.position?.end.offset ?? 0;

/** HTML elements whose content is code or names, not prose (GitBook writes expressions as `<code class="expression">`). */
const VERBATIM_ELEMENT = /^<(code|kbd|samp|var|pre|script|style|svg|math|tt)(?=[\s>/])/i;
const NO_TRANSLATE_ATTRIBUTE = /\btranslate\s*=\s*["']?no\b|\bclass\s*=\s*["'][^"']*\bnotranslate\b/i;
const OPENING_TAG = /^<([a-z][\w-]*)(?=[\s>/])/i;
/** How far the closing tag of such an element is looked for among its siblings. */
const MAX_ELEMENT_SIBLINGS = 200;

/** GitBook's liquid tags: `{% hint style="info" %}`, `{% endhint %}`, `{% embed url="…" %}`… (never across a code span: see MASK). */
const LIQUID_TAG = /\{%[^\0]*?%\}/g;
/** Display math `$$…$$` (GitBook writes it inline and as a block). */
const DISPLAY_MATH = /\$\$[^\0]+?\$\$/g;
/**
 * Inline math `$…$`, Pandoc's rule: no space inside either dollar, no digit after the closing one,
 * so "$5 and $10" stays prose.
 */
const INLINE_MATH = /(?<![\\$\w])\$(?![\s$])[^\0$\n]*?(?<![\s\\])\$(?![\d$\w])/g;
/** A backslash escape (`\*`, `\|`): the backslash matters to the markdown, the engine would drop it. */
const ESCAPE = /\\[!-/:-@[-`{-~]/g;
/** A character reference (`&amp;`, `&#169;`, `&#x2014;`). */
const CHARACTER_REFERENCE = /&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});/g;
/** A heading id (`{#install}`, Pandoc's and Docusaurus's): a name, not prose. */
const HEADING_ID = /\{#[\w.:-]+\}/g;
/** Our placeholder brackets, when the source itself holds them. */
const PLACEHOLDER_BRACKET = /[⟦⟧]/g;
/**
 * A soft line break and the next line's container prefix: blockquote markers and indentation
 * (inside a paragraph, a line starting with `>` is always a prefix: a quote would have ended it).
 */
const JOINT = /[ \t]*\r?\n[ \t>]*/g;
/** What follows a hard break on the next line before its text: the container prefix. */
const LINE_PREFIX = /[ \t>]*/y;
/** Code (spans, verbatim HTML elements) is masked with this before the regexes run: no match starts or crosses there. */
const MASK = '\0';

function spansOf(pattern: RegExp, text: string, offset: number, kind: Span['kind']): Span[] {
  return [...text.matchAll(pattern)].map((m) => ({
    start: offset + m.index,
    end: offset + m.index + m[0].length,
    kind,
  }));
}

/** The closing tag sibling of an opening HTML tag that keeps its content verbatim, if any. */
function verbatimElementEnd(siblings: readonly PhrasingContent[], index: number): number | undefined {
  const open = siblings[index]!;
  if (open.type !== 'html') return undefined;
  const name =
    VERBATIM_ELEMENT.exec(open.value)?.[1] ??
    (NO_TRANSLATE_ATTRIBUTE.test(open.value) ? OPENING_TAG.exec(open.value)?.[1] : undefined);
  if (!name || /\/>\s*$/.test(open.value)) return undefined;
  const close = new RegExp(`^</${name}\\s*>$`, 'i');
  // Bounded, so a paragraph of thousands of unclosed `<code>` tags is not searched quadratically.
  for (let i = index + 1; i < Math.min(siblings.length, index + 1 + MAX_ELEMENT_SIBLINGS); i++) {
    const node = siblings[i]!;
    if (node.type === 'html' && close.test(node.value)) return i;
  }
  return undefined;
}

interface Collected {
  spans: Span[];
  /** The ranges of text nodes (where escapes, references and soft breaks are looked for). */
  texts: Range[];
  /** Code: masked before the liquid and math regexes run. */
  masked: Range[];
}

function collectChildren(parent: Parent, source: string, out: Collected): void {
  const children = parent.children as PhrasingContent[];
  let previousEnd: number | undefined;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    const start = startOf(node);
    // Whatever lies between two siblings belongs to neither: syntax, never prose.
    if (previousEnd !== undefined && start > previousEnd)
      out.spans.push({ start: previousEnd, end: start, kind: 'inline' });
    const closing = verbatimElementEnd(children, i);
    if (closing !== undefined) {
      const end = endOf(children[closing]!);
      out.spans.push({ start, end, kind: 'inline' });
      out.masked.push({ start, end });
      previousEnd = end;
      i = closing;
      continue;
    }
    collectNode(node, source, out);
    previousEnd = endOf(node);
  }
}

/** The opening and closing syntax of a node around its children (`**`, `[` and `](url "title")`). */
function delimiters(node: Parent, out: Collected, glue: boolean): void {
  const first = node.children[0] as Nodes;
  const last = node.children[node.children.length - 1] as Nodes;
  out.spans.push({ start: startOf(node), end: startOf(first), kind: 'inline', ...(glue ? { glue: 'after' } : {}) });
  out.spans.push({ start: endOf(last), end: endOf(node), kind: 'inline', ...(glue ? { glue: 'before' } : {}) });
}

function collectNode(node: PhrasingContent, source: string, out: Collected): void {
  const start = startOf(node);
  const end = endOf(node);
  const whole = (): void => void out.spans.push({ start, end, kind: 'inline' });
  switch (node.type) {
    case 'text':
      out.texts.push({ start, end });
      return;
    case 'inlineCode':
      whole();
      out.masked.push({ start, end });
      return;
    case 'break': {
      LINE_PREFIX.lastIndex = end;
      LINE_PREFIX.exec(source);
      out.spans.push({ start, end: Math.max(end, LINE_PREFIX.lastIndex), kind: 'line' });
      return;
    }
    case 'link':
      // An autolink (`<https://…>`, a bare URL or email): the text is the target.
      if (source[start] !== '[' || node.children.length === 0) return whole();
      delimiters(node, out, false);
      collectChildren(node, source, out);
      return;
    case 'linkReference':
      // `[text]` and `[text][]` find their definition by their text: translating it would break the link.
      if (node.referenceType !== 'full' || node.children.length === 0) return whole();
      delimiters(node, out, false);
      collectChildren(node, source, out);
      return;
    case 'emphasis':
    case 'strong':
    case 'delete':
      if (node.children.length === 0) return whole();
      delimiters(node, out, true);
      collectChildren(node, source, out);
      return;
    default:
      // Images (kept whole, alt text included), footnote references, and anything newer.
      return whole();
  }
}

/**
 * The spans of a text block whose content is `source[start, end)` (its first child's start to its
 * last child's end).
 */
export function blockSpans(block: Parent, source: string, start: number, end: number): Span[] {
  const out: Collected = { spans: [], texts: [], masked: [] };
  collectChildren(block, source, out);
  const chars = source.slice(start, end).split('');
  for (const r of out.masked) chars.fill(MASK, Math.max(0, r.start - start), Math.min(chars.length, r.end - start));
  const masked = chars.join('');
  const spans = out.spans;
  spans.push(...spansOf(LIQUID_TAG, masked, start, 'line'));
  spans.push(...spansOf(DISPLAY_MATH, masked, start, 'line'));
  spans.push(...spansOf(INLINE_MATH, masked, start, 'inline'));
  for (const r of out.texts) {
    const text = source.slice(r.start, r.end);
    spans.push(...spansOf(ESCAPE, text, r.start, 'inline'));
    spans.push(...spansOf(CHARACTER_REFERENCE, text, r.start, 'inline'));
    spans.push(...spansOf(PLACEHOLDER_BRACKET, text, r.start, 'inline'));
    spans.push(...spansOf(HEADING_ID, text, r.start, 'inline'));
    spans.push(...spansOf(JOINT, text, r.start, 'joint'));
  }
  return spans;
}
