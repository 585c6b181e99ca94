import { AnchorSlugger } from '../../../shared/markdown/slug';

/**
 * Splits a page's markdown into sections (a heading and the text up to the
 * next heading) the way the server's search index does (shared/markdown
 * analyze.ts), but with a line scanner instead of the full markdown parser:
 * the offline index runs in the renderer on every changed page, and the
 * parser (remark + GFM) is too heavy to ship and run there for this. The
 * anchors come from the same AnchorSlugger, so a section found offline jumps
 * to the same heading as one the server found.
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
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Walks the lines of `markdown`, telling `visit` each heading or body line (code fences are body, never headings). */
function scan(
  markdown: string,
  onHeading: (heading: HeadingLine) => void,
  onBody: (line: string, inCode: boolean) => void,
): void {
  const slugger = new AnchorSlugger();
  let fence: string | undefined;
  markdown.split(/\r?\n/).forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) fence = undefined;
      else onBody(line, true);
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      return;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      const title = inlineText(heading[2] ?? '');
      onHeading({ line: index, id: slugger.slug(title), title, level: heading[1]!.length });
    } else onBody(line, false);
  });
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
  return text
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, (_, c: string) => String.fromCharCode(PARK + c.charCodeAt(0)))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/\{%[^%]*%\}/g, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)([^]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?![\w*])/g, '$1$2')
    .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - PARK))
    .replace(/\s+/g, ' ')
    .trim();
}
