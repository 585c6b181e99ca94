import { AnchorSlugger } from '../../../shared/markdown/slug';

/**
 * Splits a page's markdown into sections (a heading and the text up to the
 * next heading) the way the server's search index does (shared/markdown
 * analyze.ts), but with a line scanner instead of the full markdown parser:
 * the offline index runs in the renderer on every changed page, and the
 * parser (remark + GFM) is too heavy to ship and run there for this. The
 * scanner follows CommonMark's block structure far enough to find the same
 * headings (ATX and setext, not those in code, HTML or after a list), and
 * the anchors come from the same AnchorSlugger, so a section found offline
 * jumps to the same heading as one the server found.
 */

/** One section of a page, its body as plain text. */
export interface PageSection {
  /** Heading anchor, unique within the page ('' for the text before the first heading). */
  id: string;
  /** Heading text without markup ('' for the intro). */
  title: string;
  /** 1-6, or 0 for the intro. */
  level: number;
  /** Plain text of the section, newline-separated. */
  body: string;
}

/** A heading line of the source (0-based line number), for jumping to it in the editor. */
export interface HeadingLine {
  line: number;
  id: string;
  title: string;
  level: number;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|(\d{1,9})[.)])(?=[ \t]|$)/;
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]\s]+\]:/;
const LINK_DEFINITION = /^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*\S/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** HTML block names of CommonMark's sixth kind (a block that ends at a blank line and may interrupt a paragraph). */
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
  'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|' +
  'track|ul';
const ATTRIBUTE = `\\s+[A-Za-z_:][\\w.:-]*(?:\\s*=\\s*(?:[^\\s"'=<>\`]+|'[^']*'|"[^"]*"))?`;
/** CommonMark's HTML block starts: the start, what ends the block (undefined: a blank line), whether it may interrupt a paragraph. */
const HTML_BLOCKS: ReadonlyArray<readonly [RegExp, RegExp | undefined, boolean]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i, true],
  [/^ {0,3}<!--/, /-->/, true],
  [/^ {0,3}<\?/, /\?>/, true],
  [/^ {0,3}<![A-Za-z]/, />/, true],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/, true],
  [new RegExp(`^ {0,3}</?(?:${HTML_BLOCK_NAMES})(?=[\\s>]|/>|$)`, 'i'), undefined, true],
  [
    new RegExp(`^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>)[ \\t]*$`),
    undefined,
    false,
  ],
];

/** A link label as references match it: case and inner whitespace do not count. */
const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

const isBlank = (text: string) => /^[ \t]*$/.test(text);

/**
 * Columns of leading whitespace (a tab goes to the next multiple of 4, counted from the line's
 * start: `text` starts at column `start`), and the text with that whitespace as spaces.
 */
function indentation(text: string, start = 0): { columns: number; text: string } {
  let column = start;
  let i = 0;
  for (; i < text.length; i++) {
    if (text[i] === ' ') column++;
    else if (text[i] === '\t') column += 4 - (column % 4);
    else break;
  }
  return { columns: column - start, text: ' '.repeat(column - start) + text.slice(i) };
}

/** Cells of a table row (an escaped pipe does not split). */
function cellCount(row: string): number {
  const trimmed = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).length;
}

/** A block container open on the lines: a block quote, or a list item or footnote whose lines are indented by `indent`. */
type Container = { kind: 'quote' } | { kind: 'item'; indent: number; emptyStart: boolean; hasContent: boolean };

/** The leaf block the last line left open in the innermost container. */
type Leaf =
  | { kind: 'none' }
  /** `definitions`: how many of the first lines are link reference definitions (not the paragraph's text). */
  | { kind: 'paragraph'; lines: Array<{ index: number; raw: string; text: string }>; definitions: number }
  | { kind: 'fence'; mark: string }
  | { kind: 'html'; end: RegExp | undefined }
  | { kind: 'table' }
  /** Indented code; `interrupts`: a list item after it follows the paragraph rules (micromark's reading). */
  | { kind: 'code'; interrupts: boolean };

const NO_LEAF: Leaf = { kind: 'none' };

/** A list item or footnote definition that starts `text`: its content and how far its lines are indented. */
function itemStart(
  text: string,
  column = 0,
): { rest: string; indent: number; empty: boolean; ordered?: number } | undefined {
  const footnote = FOOTNOTE_DEFINITION.exec(text);
  if (footnote) {
    const after = text.slice(footnote[0].length);
    return { rest: after.replace(/^[ \t]+/, ''), indent: 4, empty: isBlank(after) };
  }
  if (THEMATIC_BREAK.test(text)) return undefined;
  const m = LIST_ITEM.exec(text);
  if (!m) return undefined;
  const width = m[0].length;
  const after = indentation(text.slice(width), column + width).text;
  const ordered = m[1] === undefined ? undefined : Number(m[1]);
  if (isBlank(after))
    return { rest: '', indent: width + 1, empty: true, ...(ordered === undefined ? {} : { ordered }) };
  const spaces = after.length - after.trimStart().length;
  // Five or more spaces after the marker: one belongs to the marker, the rest make indented code.
  const gap = spaces >= 5 ? 1 : spaces;
  return { rest: after.slice(gap), indent: width + gap, empty: false, ...(ordered === undefined ? {} : { ordered }) };
}

/** The HTML block that starts `text`, if any (only those that may interrupt one when a paragraph is open). */
function htmlStart(text: string, paragraphOpen: boolean): { end: RegExp | undefined } | undefined {
  for (const [start, end, interrupts] of HTML_BLOCKS)
    if ((interrupts || !paragraphOpen) && start.test(text)) return { end };
  return undefined;
}

/**
 * Whether `text` starts a block that ends an open paragraph (so it is not a paragraph's
 * continuation line). `inParagraph`: the paragraph is in the container the line reached, where an
 * empty list item, or an ordered one not numbered 1, cannot interrupt it.
 */
function startsBlock(text: string, inParagraph: boolean): boolean {
  if (isBlank(text) || QUOTE.test(text) || ATX_HEADING.test(text) || THEMATIC_BREAK.test(text)) return true;
  if (isFence(text) || htmlStart(text, true)) return true;
  const item = itemStart(text);
  if (!item) return false;
  return !inParagraph || (!item.empty && (item.ordered === undefined || item.ordered === 1));
}

function isFence(text: string): RegExpExecArray | undefined {
  const m = FENCE.exec(text);
  // A backtick fence's info string may not hold a backtick.
  return m && !(m[1]![0] === '`' && m[2]!.includes('`')) ? m : undefined;
}

/**
 * Walks the lines of `markdown`, telling `onHeading` each top-level heading (ATX `# Title`, or
 * setext: paragraph lines underlined with `===` or `---`) and `onBody` each other line (code
 * is body, never headings). A small CommonMark block scanner: it tracks block quotes, list
 * items, fences, HTML blocks, tables and paragraphs (with lazy continuation lines), so it finds
 * the headings the server's parser finds. Headings nested in quotes or lists are not sections
 * there either, but take an anchor, as on the server.
 */
function scan(
  markdown: string,
  onHeading: (heading: HeadingLine) => void,
  onBody: (line: string, inCode: boolean) => void,
): void {
  const lines = markdown.split(/\r?\n/);
  // Link reference definitions, wherever they are: `[label]` alone reads as its label where one is defined.
  const labels = new Set<string>();
  if (markdown.includes(']:')) walk(lines, labels, noop, noop, (label) => labels.add(label));
  walk(lines, labels, onHeading, onBody, noop);
}

const noop = () => undefined;

/** The scanner of `scan`: `onDefinition` hears the (normalized) label of each link reference definition. */
function walk(
  lines: readonly string[],
  labels: ReadonlySet<string>,
  onHeading: (heading: HeadingLine) => void,
  onBody: (line: string, inCode: boolean) => void,
  onDefinition: (label: string) => void,
): void {
  const slugger = new AnchorSlugger();
  const containers: Container[] = [];
  let leaf: Leaf = NO_LEAF;
  const heading = (line: number, title: string, level: number) => {
    const id = slugger.slug(title);
    if (containers.length === 0) onHeading({ line, id, title, level });
  };
  /** Ends the open leaf block: a top-level paragraph's lines are body after all. */
  const closeLeaf = () => {
    if (leaf.kind === 'paragraph' && containers.length === 0) for (const l of leaf.lines) onBody(l.raw, false);
    leaf = NO_LEAF;
  };
  const closeContainers = (keep: number) => {
    if (containers.length > keep) closeLeaf();
    containers.length = keep;
  };
  /** A paragraph line: buffered at the top level (an underline may make it a heading), else body now. */
  const paragraphLine = (index: number, raw: string, text: string) => {
    if (leaf.kind !== 'paragraph') {
      closeLeaf();
      leaf = { kind: 'paragraph', lines: [], definitions: 0 };
    }
    // Definitions open a paragraph (they are not its text: see the setext underline below).
    const definition = leaf.definitions === leaf.lines.length && LINK_DEFINITION.exec(text);
    if (definition) {
      leaf.definitions++;
      onDefinition(normalizeLabel(definition[1]!));
    }
    leaf.lines.push({ index, raw, text });
    if (containers.length > 0) onBody(raw, false);
  };

  lines.forEach((raw, index) => {
    let text = indentation(raw).text;
    let column = 0; // where `text` starts in the line
    // 1. Which open containers the line continues.
    let matched = 0;
    for (const c of containers) {
      if (c.kind === 'quote') {
        const m = QUOTE.exec(text);
        if (!m) break;
        column += m[0].length;
        text = indentation(text.slice(m[0].length), column).text;
      } else if (isBlank(text)) {
        // A list item may start with at most one blank line.
        if (c.emptyStart && !c.hasContent) break;
        text = '';
      } else {
        const { columns, text: spaced } = indentation(text);
        if (columns < c.indent) break;
        text = spaced.slice(c.indent);
        column += c.indent;
      }
      matched++;
    }
    const all = matched === containers.length;
    // 2. Leaf blocks that continue only inside all their containers.
    if (all && leaf.kind === 'fence') {
      const close = isFence(text);
      if (close && close[1]![0] === leaf.mark[0] && close[1]!.length >= leaf.mark.length && isBlank(close[2]!))
        leaf = NO_LEAF;
      else onBody(raw, true);
      return;
    }
    if (all && leaf.kind === 'html') {
      // Raw HTML is not text the server indexes.
      if ((leaf.end === undefined && isBlank(text)) || leaf.end?.test(text)) leaf = NO_LEAF;
      return;
    }
    if (all && leaf.kind === 'code' && (isBlank(text) || indentation(text).columns >= 4)) {
      onBody(raw, true);
      return;
    }
    // A lazy continuation line: a paragraph inside a quote or list item goes on without the markers.
    if (!all && leaf.kind === 'paragraph' && !startsBlock(text, false)) {
      // A lone HTML tag there starts an HTML block in the container instead (as micromark reads it).
      if (htmlStart(text, false)) leaf = { kind: 'html', end: undefined };
      else paragraphLine(index, raw, text);
      return;
    }
    const closed = matched < containers.length;
    closeContainers(matched);
    // 3. New containers the line opens.
    for (;;) {
      const inParagraph = leaf.kind === 'paragraph';
      if (inParagraph && SETEXT_UNDERLINE.test(text)) break; // `Title` + `-`: an underline, not an empty item
      // After indented code, too, an empty or non-1 list item is text (as micromark reads it).
      const restricted = inParagraph || (leaf.kind === 'code' && leaf.interrupts);
      const quote = QUOTE.exec(text);
      const item = quote ? undefined : itemStart(text, column);
      if (quote) {
        column += quote[0].length;
        text = indentation(text.slice(quote[0].length), column).text;
      } else if (item && (!restricted || FOOTNOTE_DEFINITION.test(text) || startsBlock(text, true))) {
        column += item.indent;
        text = item.rest;
      } else break;
      const parent = containers[containers.length - 1];
      if (parent?.kind === 'item') parent.hasContent = true;
      closeLeaf();
      containers.push(
        item ? { kind: 'item', indent: item.indent, emptyStart: item.empty, hasContent: false } : { kind: 'quote' },
      );
    }
    const parent = containers[containers.length - 1];
    if (parent?.kind === 'item' && !isBlank(text)) parent.hasContent = true;
    // 4. The leaf block of the line.
    if (isBlank(text)) {
      closeLeaf();
      return;
    }
    const underline = SETEXT_UNDERLINE.exec(text);
    if (leaf.kind === 'paragraph' && underline) {
      // Link reference definitions at the start of a paragraph are not its text.
      const content = leaf.lines.slice(leaf.definitions);
      if (content.length > 0) {
        leaf = NO_LEAF;
        const title = setextTitle(
          content.map((l) => l.text),
          labels,
        );
        heading(content[0]!.index, title, underline[1]![0] === '=' ? 1 : 2);
        return;
      }
    }
    if (
      leaf.kind === 'table' &&
      !startsBlock(text, false) &&
      !htmlStart(text, false) &&
      indentation(text).columns < 4
    ) {
      onBody(raw, false);
      return;
    }
    const atx = ATX_HEADING.exec(text);
    if (atx) {
      closeLeaf();
      heading(index, headingText(atx[2] ?? '', labels), atx[1]!.length);
      if (containers.length > 0) onBody(raw, false);
      return;
    }
    const fence = isFence(text);
    if (fence) {
      closeLeaf();
      leaf = { kind: 'fence', mark: fence[1]! };
      return;
    }
    const html = htmlStart(text, leaf.kind === 'paragraph');
    if (html) {
      closeLeaf();
      leaf = { kind: 'html', end: html.end };
      if (html.end?.test(text.replace(/^ *<[!?]?/, ''))) leaf = NO_LEAF;
      return;
    }
    if (THEMATIC_BREAK.test(text)) {
      closeLeaf();
      onBody(raw, false);
      return;
    }
    // A table: its header row is the paragraph's last line (a row of dashes alone was an underline).
    if (leaf.kind === 'paragraph' && TABLE_DELIMITER.test(text) && /[|:]/.test(text)) {
      const header = leaf.lines[leaf.lines.length - 1]!.text;
      if (indentation(header).columns < 4 && cellCount(header) === cellCount(text)) {
        // A lone HTML tag over a delimiter row starts an HTML block there instead (as micromark reads it).
        const tag = htmlStart(header, false) !== undefined;
        if (tag) leaf.lines.pop();
        closeLeaf();
        if (!tag) onBody(raw, false);
        leaf = tag ? { kind: 'html', end: undefined } : { kind: 'table' };
        return;
      }
    }
    if (leaf.kind !== 'paragraph' && indentation(text).columns >= 4) {
      closeLeaf();
      onBody(raw, true);
      leaf = { kind: 'code', interrupts: !closed };
      return;
    }
    paragraphLine(index, raw, text);
  });
  closeContainers(0);
  closeLeaf();
}

/**
 * The plain text of a setext heading, as the server's parser reads it: the paragraph's lines
 * without their indentation, joined by newlines (a soft or hard line break), inline markup
 * dropped.
 */
function setextTitle(lines: readonly string[], labels: ReadonlySet<string>): string {
  const joined = lines
    .map((line, i) => {
      const trimmed = line.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
      // A backslash at the end of a line (not the last) is a hard line break.
      return i < lines.length - 1 ? trimmed.replace(/(?<!\\)\\$/, '') : trimmed;
    })
    .join('\n');
  return headingText(joined, labels);
}

/** The headings of `markdown` with their anchors, in order. */
export function headingLines(markdown: string): HeadingLine[] {
  const headings: HeadingLine[] = [];
  scan(
    markdown,
    (heading) => headings.push(heading),
    () => undefined,
  );
  return headings;
}

/** The sections of `markdown`; the intro only when it has text. */
export function splitSections(markdown: string): PageSection[] {
  const sections: PageSection[] = [];
  let current = { id: '', title: '', level: 0, lines: [] as string[] };
  const close = () => {
    const body = current.lines.filter((l) => l !== '').join('\n');
    if (current.level > 0 || body !== '')
      sections.push({ id: current.id, title: current.title, level: current.level, body });
  };
  scan(
    markdown,
    (heading) => {
      close();
      current = { id: heading.id, title: heading.title, level: heading.level, lines: [] };
    },
    (line, inCode) => current.lines.push(inCode ? line.trim() : blockText(line)),
  );
  close();
  return sections;
}

/** One body line without its block markup (quotes, list markers, table pipes, GitBook block tags). */
export function blockText(line: string): string {
  if (/^\s*\{%.*%\}\s*$/.test(line)) return ''; // {% hint %}, {% endtabs %}...
  if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) return ''; // table delimiter row
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return ''; // thematic break
  const text = line
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, '')
    .replace(/^\s*\|/, '')
    .replace(/\|\s*$/, '')
    .replace(/\s*\|\s*/g, ' ');
  return inlineText(text);
}

/** Escaped punctuation (`\*`) is parked in the Private Use Area while markers are stripped, then restored. */
const PARK = 0xe000;

/** Inline markdown as the reader sees it: link and image text kept, markers, tags and URLs dropped. */
export function inlineText(text: string): string {
  return stripInline(text.replace(/\{%[^%]*%\}/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A heading's text as the server's parser reads it: inline markup dropped, whitespace and line
 * breaks kept, and GitBook tags kept as written (the parser knows no tags).
 */
function headingText(text: string, labels: ReadonlySet<string>): string {
  return stripInline(text, labels);
}

/** Where a code span's text waits while the other markup is dropped (`\ue100<n>\ue100`). */
const CODE_SLOT = '\ue100';

/** Drops inline markup: link and image text kept, markers, HTML tags and URLs dropped. */
function stripInline(text: string, labels: ReadonlySet<string> = new Set()): string {
  // Most lines hold no markup at all: skip the replacements they cannot need.
  if (!/[\\`[<*_~]/.test(text)) return text;
  const code: string[] = [];
  let out = text.replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, (_, c: string) =>
    String.fromCharCode(PARK + c.charCodeAt(0)),
  );
  // A code span: between backtick runs of the same length; its text is not markup.
  if (out.includes('`'))
    out = out.replace(/(?<!`)(`+)(?!`)([^]*?[^`])\1(?!`)/g, (_, _ticks: string, inner: string) => {
      code.push(/^[ \n][^]*[ \n]$/.test(inner) && inner.trim() ? inner.slice(1, -1) : inner);
      return `${CODE_SLOT}${code.length - 1}${CODE_SLOT}`;
    });
  if (out.includes('['))
    out = out
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/\[([^\]]+)\](?![[(])/g, (all, label: string) => (labels.has(normalizeLabel(label)) ? label : all));
  if (out.includes('<')) out = out.replace(/<\/?[A-Za-z][^>]*>/g, '');
  if (/[*_~]/.test(out))
    out = out
      .replace(/(\*\*|__|~~)(?=\S)([^]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?![\w*])/g, '$1$2');
  if (code.length > 0) out = out.replace(/\ue100(\d+)\ue100/g, (_, i: string) => code[Number(i)] ?? '');
  return out.replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - PARK));
}
