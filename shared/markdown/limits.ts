/**
 * Cheap checks made before any markdown is parsed. micromark (behind
 * parseMarkdown) does super-linear work on some shapes of input: nested link
 * labels (`[[[…]]]`, quadratic in the depth), deeply nested lists and quotes
 * (every line re-checks every open container), long emphasis delimiter runs,
 * and very wide tables. A 60 kB page of brackets takes seconds. These checks
 * are one linear pass with no regular expressions (nothing to backtrack), so
 * refusing a page costs far less than parsing it; input over a limit is shown
 * in a degraded form (see degraded.ts) instead of being parsed at all.
 *
 * The counts are deliberately coarse and err on the side of refusing: a
 * bracket inside inline code or a fenced block counts too (telling code
 * apart would need the parser this avoids). They stop the known attacks;
 * the time budget of the server's parse pool stops the rest.
 */

/** Limits on page markdown before it is parsed. */
export interface MarkdownLimits {
  /** Longest markdown parsed, in UTF-16 code units. */
  maxLength: number;
  /** Deepest nesting: open `[` within one paragraph, list/quote containers on one line, emphasis run / 2. */
  maxDepth: number;
  /** Most columns of a table (cells of its delimiter row `| --- | --- |`). */
  maxTableColumns: number;
}

/** The limits the server applies to every page, comment and published page. */
export const MARKDOWN_LIMITS: Readonly<MarkdownLimits> = Object.freeze({
  maxLength: 256 * 1024,
  maxDepth: 100,
  maxTableColumns: 128,
});

/** Which limit a markdown text is over. */
export type LimitReason = 'size' | 'nesting' | 'table-columns';

/** A broken limit, with a message for people. */
export interface LimitBreach {
  reason: LimitReason;
  message: string;
}

/** What the checks measure (exported for tests and benchmarks). */
export interface MarkdownShape {
  /** Most `[` open at once within one paragraph (a blank line closes them all; `\[` does not count). */
  bracketDepth: number;
  /** Most list/quote containers a single line opens or continues (markers + leading indentation / 2). */
  containerDepth: number;
  /** Longest run of one emphasis delimiter (`*`, `_` or `~`). */
  delimiterRun: number;
  /** Most cells in a table delimiter row. */
  tableColumns: number;
}

const CR = 13;
const SPACE = 32;
const TAB = 9;
const GT = 62; // >
const DASH = 45; // -
const STAR = 42; // *
const PLUS = 43; // +
const UNDERSCORE = 95; // _
const TILDE = 126; // ~
const OPEN = 91; // [
const CLOSE = 93; // ]
const BACKSLASH = 92;
const PIPE = 124; // |
const COLON = 58; // :
const DOT = 46; // .
const PAREN = 41; // )

const isDigit = (c: number) => c >= 48 && c <= 57;
const isBlankOrEnd = (s: string, i: number, end: number) =>
  i >= end || s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB;

/**
 * Scans the container prefix of the line [start, end): leading whitespace,
 * `>` quote markers and list markers (`-`, `*`, `+`, `1.`, `1)` followed by a
 * blank). Returns the depth it implies and where the line's content starts.
 */
function containerPrefix(s: string, start: number, end: number): { depth: number; content: number } {
  let i = start;
  let markers = 0;
  let indent = 0;
  for (;;) {
    let columns = 0;
    while (i < end && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) {
      columns += s.charCodeAt(i) === TAB ? 4 - (columns % 4) : 1;
      i++;
    }
    if (markers === 0) indent = columns;
    if (i >= end) break;
    const c = s.charCodeAt(i);
    if (c === GT) {
      markers++;
      i++;
      continue;
    }
    if ((c === DASH || c === STAR || c === PLUS) && isBlankOrEnd(s, i + 1, end)) {
      markers++;
      i++;
      continue;
    }
    if (isDigit(c)) {
      let j = i;
      while (j < end && j - i < 9 && isDigit(s.charCodeAt(j))) j++;
      const d = s.charCodeAt(j);
      if (j < end && (d === DOT || d === PAREN) && isBlankOrEnd(s, j + 1, end)) {
        markers++;
        i = j + 1;
        continue;
      }
    }
    break;
  }
  // A nested list item sits under its parent's content: two columns of indentation per level at least.
  return { depth: markers === 0 ? 0 : markers + Math.floor(indent / 2), content: i };
}

/** Cells of a table delimiter row (`| --- | :-: |`), or 0 when [start, end) is not one. */
function delimiterRowCells(s: string, start: number, end: number): number {
  let cells = 0;
  let pipes = 0;
  let dashInCell = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === PIPE) {
      pipes++;
      if (dashInCell) cells++;
      dashInCell = false;
    } else if (c === DASH) dashInCell = true;
    else if (c !== COLON && c !== SPACE && c !== TAB && c !== CR) return 0;
  }
  if (dashInCell) cells++;
  return pipes > 0 ? cells : 0;
}

/** Measures `markdown` in one pass (see MarkdownShape). */
export function measureMarkdown(markdown: string): MarkdownShape {
  const shape: MarkdownShape = { bracketDepth: 0, containerDepth: 0, delimiterRun: 0, tableColumns: 0 };
  const s = markdown;
  let brackets = 0;
  let lineStart = 0;
  while (lineStart <= s.length) {
    let lineEnd = s.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = s.length;
    const { depth, content } = containerPrefix(s, lineStart, lineEnd);
    if (depth > shape.containerDepth) shape.containerDepth = depth;
    let blank = true;
    let run = 0;
    let runChar = -1;
    for (let i = content; i < lineEnd; i++) {
      const c = s.charCodeAt(i);
      if (c !== SPACE && c !== TAB && c !== CR) blank = false;
      if (c === STAR || c === UNDERSCORE || c === TILDE) {
        run = c === runChar ? run + 1 : 1;
        runChar = c;
        if (run > shape.delimiterRun) shape.delimiterRun = run;
      } else runChar = -1;
      if (c === BACKSLASH) {
        i++; // an escaped character is literal text
        runChar = -1;
      } else if (c === OPEN) {
        if (++brackets > shape.bracketDepth) shape.bracketDepth = brackets;
      } else if (c === CLOSE && brackets > 0) brackets--;
    }
    // Link labels never span a blank line (it ends the paragraph). A line holding only container
    // markers (`>`) may be a lazy continuation instead: keep counting there.
    if (blank && depth === 0) brackets = 0;
    const cells = delimiterRowCells(s, content, lineEnd);
    if (cells > shape.tableColumns) shape.tableColumns = cells;
    lineStart = lineEnd + 1;
    if (lineEnd === s.length) break;
  }
  return shape;
}

/** The first limit `markdown` breaks, or undefined when it may be parsed. */
export function checkMarkdownLimits(
  markdown: string,
  limits: Readonly<MarkdownLimits> = MARKDOWN_LIMITS,
): LimitBreach | undefined {
  if (markdown.length > limits.maxLength)
    return { reason: 'size', message: `the page is longer than ${limits.maxLength} characters` };
  const shape = measureMarkdown(markdown);
  // Two delimiters (`**`) open one level of emphasis.
  const depth = Math.max(shape.bracketDepth, shape.containerDepth, Math.ceil(shape.delimiterRun / 2));
  if (depth > limits.maxDepth)
    return { reason: 'nesting', message: `the page nests more than ${limits.maxDepth} levels deep` };
  if (shape.tableColumns > limits.maxTableColumns)
    return { reason: 'table-columns', message: `a table has more than ${limits.maxTableColumns} columns` };
  return undefined;
}
