/**
 * Page metadata carried by a markdown document, read the way Git sync reads
 * a page file: a YAML-ish front matter block (`key: value` lines between
 * `---` fences) and a leading `# Heading`, which gives the title and is not
 * kept in the body (Folio stores the title beside the body, as GitBook does).
 */

export interface MarkdownMeta {
  title?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  /** The body without front matter and leading heading. */
  body: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))))
    return v.slice(1, -1);
  return v;
}

/** Splits a markdown document into its metadata and body. */
export function readMarkdownMeta(markdown: string): MarkdownMeta {
  let rest = markdown.replace(/^\uFEFF/, '');
  const meta: MarkdownMeta = { body: '' };
  const fm = FRONT_MATTER.exec(rest);
  if (fm) {
    rest = rest.slice(fm[0].length);
    for (const line of fm[1]!.split(/\r?\n/)) {
      const m = /^([A-Za-z]+)\s*:\s*(.*)$/.exec(line);
      if (!m) continue;
      const key = m[1]!;
      const value = unquote(m[2]!);
      if (key === 'title' && value) meta.title = value;
      else if (key === 'description') meta.description = value;
      else if (key === 'icon') meta.icon = value;
      else if (key === 'emoji') meta.emoji = value;
      else if (key === 'hidden') meta.hidden = value === 'true';
    }
  }
  const withoutBlank = rest.replace(/^(?:[ \t]*\r?\n)+/, '');
  const heading = leadingHeading(withoutBlank);
  if (heading) {
    if (meta.title === undefined) meta.title = heading.title;
    rest = withoutBlank.slice(heading.length).replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  meta.body = rest;
  return meta;
}

/**
 * A first line `# Title` (an ATX level-1 heading, optional closing `#`s), read
 * without a regex: a lazy title before optional spaces and `#`s backtracks
 * quadratically on a long line of spaces.
 */
function leadingHeading(text: string): { title: string; length: number } | undefined {
  if (!/^#[ \t]/.test(text)) return undefined;
  const end = text.indexOf('\n');
  const line = (end < 0 ? text : text.slice(0, end)).replace(/\r$/, '');
  let title = line.slice(1).trim();
  let cut = title.length;
  while (cut > 0 && title[cut - 1] === '#') cut--;
  const closing = title.slice(0, cut);
  if (closing === '' || /[ \t]$/.test(closing)) title = closing.trim();
  if (title === '') return undefined;
  return { title, length: end < 0 ? text.length : end + 1 };
}
