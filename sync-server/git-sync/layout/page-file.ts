import { fieldsOf, isClosingFence, isOpeningFence, keysFor, readFrontMatter, type FrontMatter } from './front-matter';
import { peelBom, splitLines, type Line } from './lines';
import { stringify } from 'yaml';
import type { PageFields } from './types';

/**
 * The anatomy of a page's markdown file in GitBook's layout: front matter, then the title heading
 * (`# Title`, or a setext `Title` over `===`), then the body Folio stores. It is kept as lines with
 * their positions, so the writer can change one part and leave every other byte alone: the text
 * before `bodyStart` is the prefix, body line i is file line bodyStart + i.
 */

export interface PageFile {
  /** A byte order mark, kept but never read. */
  bom: string;
  lines: Line[];
  /** The front matter: lines 0..close, its YAML and what it decodes to. */
  frontMatter?: { close: number; yaml: string; data: FrontMatter };
  /** The title heading's line (a setext heading's underline is the next line). */
  heading?: { line: number; title: string; setext: boolean };
  /** The first line of the body. */
  bodyStart: number;
  fields: PageFields;
  /** The title the file gives (front matter `title`, else its heading). */
  title?: string;
}

/**
 * The title of an ATX level-1 heading line (`# Title`, optional closing `#`s), as
 * change-request-content/markdown-meta.ts reads it; parsed by hand, since a lazy regex over
 * spaces and `#`s backtracks quadratically on a long line.
 */
export function atxTitle(line: string): string | undefined {
  if (!/^#[ \t]/.test(line)) return undefined;
  let title = line.slice(1).trim();
  let cut = title.length;
  while (cut > 0 && title[cut - 1] === '#') cut--;
  const closing = title.slice(0, cut);
  if (closing === '' || /[ \t]$/.test(closing)) title = closing.trim();
  return title === '' ? undefined : title;
}

/** A line a setext heading's text may not start with: it would be another block. */
const NOT_SETEXT_TEXT = /^(?: {4}|\t| {0,3}(?:[#>*+=|<-]|\d+[.)]|`{3}|~{3}|\{%))/;
const SETEXT_H1_UNDERLINE = /^ {0,3}=+[ \t]*$/;

/** The heading line Folio writes for `title` (with a closing `#` when the title itself ends in one). */
export function headingLine(title: string): string {
  const flat = title.replace(/\s*\n\s*/g, ' ').trim();
  const line = `# ${flat}`;
  return atxTitle(line) === flat ? line : `${line} #`;
}

/** Whether a line holds nothing but spaces (and is not the file's last line, which would end it). */
const isBlank = (lines: readonly Line[], i: number) =>
  i < lines.length - 1 && lines[i]!.text.trim() === '' && lines[i]!.eol !== undefined;

export function decodePageFile(text: string): PageFile {
  const { bom, rest } = peelBom(text);
  const lines = splitLines(rest);
  const file: PageFile = { bom, lines, bodyStart: 0, fields: {} };
  let at = 0;
  if (lines.length > 1 && isOpeningFence(lines[0]!.text)) {
    const close = lines.findIndex((l, i) => i > 0 && isClosingFence(l.text));
    if (close > 0) {
      const yaml = lines
        .slice(1, close)
        .map((l) => l.text + (l.eol ?? ''))
        .join('');
      const data = readFrontMatter(yaml);
      file.frontMatter = { close, yaml, data };
      const { title, ...fields } = fieldsOf(data);
      file.fields = fields;
      if (title) file.title = title;
      at = close + 1;
    }
  }
  while (isBlank(lines, at)) at++;
  const first = lines[at]?.text;
  const atx = first === undefined ? undefined : atxTitle(first);
  if (atx !== undefined) {
    file.heading = { line: at, title: atx, setext: false };
    at++;
  } else if (
    first !== undefined &&
    first.trim() !== '' &&
    !NOT_SETEXT_TEXT.test(first) &&
    lines[at + 1] !== undefined &&
    SETEXT_H1_UNDERLINE.test(lines[at + 1]!.text)
  ) {
    file.heading = { line: at, title: first.trim(), setext: true };
    at += 2;
  }
  file.title ??= file.heading?.title;
  while (file.heading && isBlank(lines, at)) at++;
  file.bodyStart = at;
  return file;
}

/** The body lines of a decoded file, from `start` (its bodyStart unless the baseline knows better). */
export const bodyLines = (file: PageFile, start = file.bodyStart): string[] =>
  file.lines.slice(start).map((l) => l.text);

/** The front matter lines Folio writes for a new page (none when no field is set). */
export function frontMatterLines(fields: PageFields): string[] {
  const keys = keysFor(fields, { valid: true, keys: [], values: {} });
  const yaml = Object.entries(keys)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => stringify({ [k]: v }).replace(/\n$/, ''));
  return yaml.length === 0 ? [] : ['---', ...yaml.join('\n').split('\n'), '---', ''];
}

/** A new page file in GitBook's style: front matter, `# Title`, a blank line, the body. */
export function composePageFile(
  fields: PageFields,
  title: string,
  body: readonly string[],
): { text: string; bodyStart: number } {
  const head = [...frontMatterLines(fields), headingLine(title)];
  // An empty body ends the file after the heading's line; otherwise one blank line sets it apart.
  if (!(body.length === 1 && body[0] === '')) head.push('');
  return { text: [...head, ...body].join('\n'), bodyStart: head.length };
}
