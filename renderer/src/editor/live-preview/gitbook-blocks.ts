/**
 * GitBook's block syntax in markdown, found line by line: liquid-style tags
 * (`{% hint style="info" %}` … `{% endhint %}`, `{% tabs %}`, `{% tab title="…" %}`,
 * `{% expandable title="…" %}`, `{% embed url="…" %}`, `{% content-ref url="…" %}`,
 * `{% file src="…" %}`) and the HTML GitBook writes for expandables
 * (`<details><summary>…</summary>`) and cards (`<table data-view="cards">`).
 * Pure: takes lines with their document offsets, so it is unit-testable and
 * the editor can rescan only when a tag line changes.
 */

/** API operation blocks: the current form and the two older ones (shared/markdown/openapi-block.ts). */
export const OPENAPI_KINDS = ['openapi-operation', 'openapi', 'swagger'] as const;

/** One line of the document. */
export interface SourceLine {
  from: number;
  text: string;
}

/** A line holding a tag, parsed. */
export interface TagLine {
  from: number;
  to: number;
  /** Tag name: hint, tabs, tab, expandable, embed, content-ref, file, details, summary, cards. */
  name: string;
  closing: boolean;
  attrs: Record<string, string>;
  /** Text after the opening tag on the same line (a file's caption, a summary's title). */
  rest: string;
  /** The closing tag is on the same line (`{% file src="x" %}caption{% endfile %}`). */
  closedOnLine: boolean;
}

/** A block from its opening line to its closing line (or the opening line alone for embed/file). */
export interface GitbookBlock {
  kind: string;
  from: number;
  to: number;
  open: TagLine;
  close?: TagLine;
  attrs: Record<string, string>;
  /** For tabs: the `{% tab %}` lines inside it. */
  tabs: TagLine[];
  /** For details: the `<summary>` line. */
  summary?: TagLine;
}

/** Blocks that wrap a body and need a closing tag. */
const CONTAINERS = new Set([
  'hint',
  'tabs',
  'tab',
  'expandable',
  'content-ref',
  'details',
  'cards',
  'embed',
  'file',
  ...OPENAPI_KINDS,
]);
/**
 * Blocks that stand alone on their line when no closing tag follows (GitBook writes `{% embed url %}`
 * bare; a hand-written API operation block may lack its end tag, as the published site allows).
 */
const MAY_STAND_ALONE = new Set(['embed', 'file', ...OPENAPI_KINDS]);

const LIQUID = /^\s*\{%\s*(end)?([a-z][a-z-]*)((?:\s+[a-zA-Z-]+\s*=\s*"[^"]*")*)\s*%\}(.*)$/;
const ATTR = /([a-zA-Z-]+)\s*=\s*"([^"]*)"/g;

/** Parses one line; undefined when it holds no block tag. */
export function parseTagLine(line: SourceLine): TagLine | undefined {
  const to = line.from + line.text.length;
  const liquid = LIQUID.exec(line.text);
  if (liquid) {
    const name = liquid[2]!;
    const attrs: Record<string, string> = {};
    for (const m of (liquid[3] ?? '').matchAll(ATTR)) attrs[m[1]!] = m[2]!;
    const rest = liquid[4] ?? '';
    const endOnLine = new RegExp(`\\{%\\s*end${name}\\s*%\\}\\s*$`).exec(rest);
    return {
      from: line.from,
      to,
      name,
      closing: Boolean(liquid[1]),
      attrs,
      rest: endOnLine ? rest.slice(0, endOnLine.index) : rest,
      closedOnLine: Boolean(endOnLine),
    };
  }
  const trimmed = line.text.trim();
  if (/^<details(\s[^>]*)?>$/i.test(trimmed))
    return { from: line.from, to, name: 'details', closing: false, attrs: {}, rest: '', closedOnLine: false };
  if (/^<\/details>$/i.test(trimmed))
    return { from: line.from, to, name: 'details', closing: true, attrs: {}, rest: '', closedOnLine: false };
  const summary = /^<summary>(.*)<\/summary>$/i.exec(trimmed);
  if (summary)
    return { from: line.from, to, name: 'summary', closing: false, attrs: {}, rest: summary[1]!, closedOnLine: true };
  if (/^<table\b[^>]*\bdata-view\s*=\s*"cards"[^>]*>/i.test(trimmed))
    return {
      from: line.from,
      to,
      name: 'cards',
      closing: false,
      attrs: {},
      rest: '',
      closedOnLine: /<\/table>\s*$/i.test(trimmed),
    };
  if (/^<\/table>$/i.test(trimmed))
    return { from: line.from, to, name: 'cards', closing: true, attrs: {}, rest: '', closedOnLine: false };
  return undefined;
}

/** Cheap test whether a stretch of text may hold a tag line (decides whether an edit needs a rescan). */
export function mayHoldTag(text: string): boolean {
  return /\{%|%\}|<\/?(details|summary|table)\b/i.test(text);
}

/** Pairs the tag lines of a document into blocks (innermost first closed, unmatched tags ignored). */
export function scanGitbookBlocks(lines: Iterable<SourceLine>): GitbookBlock[] {
  const blocks: GitbookBlock[] = [];
  const stack: GitbookBlock[] = [];
  const standAlone = (block: GitbookBlock) => blocks.push(block);
  for (const line of lines) {
    const tag = parseTagLine(line);
    if (!tag) continue;
    if (tag.name === 'summary') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'details' && !top.summary) top.summary = tag;
      continue;
    }
    if (!CONTAINERS.has(tag.name)) continue;
    if (!tag.closing) {
      const block: GitbookBlock = { kind: tag.name, from: tag.from, to: tag.to, open: tag, attrs: tag.attrs, tabs: [] };
      if (tag.closedOnLine) standAlone(block);
      else stack.push(block);
      if (tag.name === 'tab') {
        const tabs = [...stack].reverse().find((b) => b.kind === 'tabs');
        tabs?.tabs.push(tag);
      }
      continue;
    }
    // A closing tag: close the innermost open block of that name; stand-alone embeds/files above it end here.
    const at = stack.map((b) => b.kind).lastIndexOf(tag.name);
    if (at < 0) continue;
    for (const dropped of stack.splice(at + 1)) if (MAY_STAND_ALONE.has(dropped.kind)) standAlone(dropped);
    const block = stack.pop()!;
    block.close = tag;
    block.to = tag.to;
    blocks.push(block);
  }
  // Unclosed embeds/files are the bare one-line form; other unclosed blocks are not blocks (yet).
  for (const open of stack) if (MAY_STAND_ALONE.has(open.kind)) standAlone(open);
  return blocks.sort((a, b) => a.from - b.from || b.to - a.to);
}

/** The lines of a string, with offsets (for tests and callers holding a plain string). */
export function linesOf(text: string): SourceLine[] {
  const out: SourceLine[] = [];
  let from = 0;
  for (const t of text.split('\n')) {
    out.push({ from, text: t });
    from += t.length + 1;
  }
  return out;
}

/**
 * Which tab of a tabs block is shown: the one holding `pos` (the cursor), else the first.
 * Returns the index into `tabs.tabs`.
 */
export function activeTabIndex(tabs: GitbookBlock, pos: number): number {
  if (pos < tabs.from || pos > tabs.to) return 0;
  let active = 0;
  tabs.tabs.forEach((t, i) => {
    if (t.from <= pos) active = i;
  });
  return active;
}
