import type { Nodes, Parent } from 'mdast';
import { findOpenApiBlocks } from '../openapi-block';
import { MarkdownTooComplexError, parseMarkdown, withDepthGuard } from '../parse';
import { blockSpans } from './markdown-spans';
import { buildSegment, rebuildText, type Segment } from './segment';

/**
 * Page markdown as segments for an engine, and back. Each text block (paragraph, heading, table
 * cell) is one segment: its source text with every span that must survive byte-exact replaced by a
 * placeholder (see markdown-spans.ts). Everything outside the segments (code blocks, HTML blocks,
 * front matter, definitions, list markers, `#`, `>`, table pipes, blank lines) is copied as it is,
 * so a rebuild with the segments' own text gives back the input byte for byte.
 *
 * Working on source ranges (mdast positions), not on a tree serialized again, is what keeps the
 * output byte-exact: a serializer would rewrite bullets, escapes and spacing on every page.
 *
 * Choices:
 * - images are kept whole, alt text included (an alt is often a file name; a translated one buys little);
 * - `[text]` and `[text][]` references are kept whole (their text is what finds the definition);
 * - raw HTML blocks and the content of `<code>`, `<kbd>`, `<pre>`… and of elements marked
 *   `translate="no"` are kept; the text between other inline HTML tags is translated;
 * - GitBook's OpenAPI blocks (`{% openapi-operation %}` … `{% endopenapi-operation %}`) are kept whole:
 *   what stands between their tags is drawn from the spec.
 */

export interface MarkdownSegments {
  segments: readonly Segment[];
  /** The markdown with segment i replaced by translations[i] (`undefined`: kept as it is). */
  rebuild(translations: readonly (string | undefined)[]): string;
}

/**
 * A page's markdown cut into segments, or why it is kept as it is (over a limit, nested too deeply,
 * too slow to parse). Plain data: the server's parse pool computes it in a worker thread and sends
 * it back (sync-server/markdown, task `segments`).
 */
export type MarkdownSegmentation = { segments: readonly Segment[] } | { untranslated: string };

/** Front matter: `---` on the first line, up to the next `---` or `...` line. */
const FRONT_MATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The markdown with the regions that are never translated (front matter, OpenAPI blocks) turned into
 * spaces: the parser sees blank lines there, and every offset still points at the same character.
 */
function maskVerbatimRegions(markdown: string): string {
  const regions: [number, number][] = [];
  const front = FRONT_MATTER.exec(markdown);
  if (front) regions.push([0, front[0].length]);
  const blocks = findOpenApiBlocks(markdown);
  if (blocks.length > 0) {
    const lineStarts = [0];
    for (let i = 0; i < markdown.length; i++) if (markdown[i] === '\n') lineStarts.push(i + 1);
    for (const b of blocks) regions.push([lineStarts[b.startLine]!, lineStarts[b.endLine] ?? markdown.length]);
  }
  if (regions.length === 0) return markdown;
  const chars = markdown.split('');
  for (const [from, to] of regions) for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
  return chars.join('');
}

/** What a line break of a paragraph's translation becomes when the source paragraph had none: its container prefix. */
function continuationOf(markdown: string, start: number): string {
  const lineStart = markdown.lastIndexOf('\n', start - 1) + 1;
  // `> - item` continues as `>   `: quote markers stay, list markers become their width in spaces.
  return '\n' + markdown.slice(lineStart, start).replace(/[^>\s]/g, ' ');
}

function textBlockSegment(markdown: string, block: Parent): Segment | undefined {
  const children = block.children as Nodes[];
  if (children.length === 0) return undefined;
  const start = children[0]!.position?.start.offset;
  const end = children[children.length - 1]!.position?.end.offset;
  if (start === undefined || end === undefined || end <= start) return undefined;
  return buildSegment(markdown, start, end, blockSpans(block, markdown, start, end), {
    singleLine: block.type === 'tableCell' || (block.type === 'heading' && !markdown.slice(start, end).includes('\n')),
    tableCell: block.type === 'tableCell',
    newline: continuationOf(markdown, start),
  });
}

function collectSegments(markdown: string, node: Nodes, out: Segment[]): void {
  switch (node.type) {
    case 'paragraph':
    case 'heading':
    case 'tableCell': {
      const segment = textBlockSegment(markdown, node);
      if (segment && segment.end > segment.start) out.push(segment);
      return;
    }
    case 'root':
    case 'blockquote':
    case 'list':
    case 'listItem':
    case 'table':
    case 'tableRow':
    case 'footnoteDefinition':
      for (const child of node.children) collectSegments(markdown, child, out);
      return;
    default:
      // Code, HTML blocks, definitions, thematic breaks: copied as they are.
      return;
  }
}

/**
 * The segments of `markdown`. Throws MarkdownTooComplexError for input nested too deeply to parse
 * (callers check shared/markdown/limits.ts first).
 */
export function segmentMarkdown(markdown: string): MarkdownSegments {
  const tree = withDepthGuard(() => parseMarkdown(maskVerbatimRegions(markdown)));
  const segments: Segment[] = [];
  withDepthGuard(() => collectSegments(markdown, tree, segments));
  return withRebuild(markdown, segments);
}

/** `segments` of `markdown` (computed here or in a worker) with their rebuild. */
export function withRebuild(markdown: string, segments: readonly Segment[]): MarkdownSegments {
  return { segments, rebuild: (translations) => rebuildText(markdown, segments, translations) };
}

/**
 * The segmentation of `markdown`, parsed on the calling thread: what a parse-pool worker runs, and
 * what a translation without a pool runs. The caller checks shared/markdown/limits.ts first.
 */
export function segmentationOf(markdown: string): MarkdownSegmentation {
  try {
    return { segments: segmentMarkdown(markdown).segments };
  } catch (err) {
    if (!(err instanceof MarkdownTooComplexError)) throw err;
    return { untranslated: err.message };
  }
}
