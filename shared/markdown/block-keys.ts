import type { RootContent } from 'mdast';
import { base64url, sha256 } from './sha256';

/**
 * Keys of a page's top-level blocks. GitBook names the blocks of a JSON
 * document by their `key` (revert_page's `block` form takes them); a Folio
 * page is one markdown text, so its blocks are the top-level nodes of its
 * parse, and a block's key is derived from its content:
 * `b` + 12 characters of base64url(SHA-256(its normalized markdown)), with
 * `-2`, `-3`… for the 2nd, 3rd identical block of the page. Like Folio's
 * content-addressed pages, a block left unchanged keeps its key in every
 * version of the page, and keys are unique within one version. The same
 * split serves the documents Folio returns (to-document.ts) and the block
 * revert, so a key read from one names the same text in the other.
 */

/** One top-level block: its span in the markdown (UTF-16 offsets, end exclusive) and its key. */
export interface MarkdownBlock {
  start: number;
  end: number;
  key: string;
  /** The content part of the key (without the `-n` of a repeated block): equal content, equal hash. */
  hash: string;
}

/** Length of a key's content part: `b` + 12 characters. */
const HASH_LENGTH = 13;

/** Line endings and trailing spaces do not make a block different; neither do surrounding blank lines. */
export function normalizeBlock(source: string): string {
  return source
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

/** The content part of the key of a block with this markdown source. */
export function blockHash(source: string): string {
  return `b${base64url(sha256(normalizeBlock(source))).slice(0, HASH_LENGTH - 1)}`;
}

/** Spans -> blocks with keys (numbering repeated contents in order). */
function keyed(markdown: string, spans: readonly { start: number; end: number }[]): MarkdownBlock[] {
  const seen = new Map<string, number>();
  return spans.map(({ start, end }) => {
    const hash = blockHash(markdown.slice(start, end));
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return { start, end, hash, key: n === 1 ? hash : `${hash}-${n}` };
  });
}

/** Blocks of an already parsed page: one per top-level node (in order; `nodes` are the root's children). */
export function blocksOfNodes(markdown: string, nodes: readonly RootContent[]): MarkdownBlock[] {
  return keyed(
    markdown,
    nodes.map((n) => ({ start: n.position?.start.offset ?? 0, end: n.position?.end.offset ?? 0 })),
  );
}

/**
 * Blocks of markdown too deeply nested to parse: its blank-line separated
 * chunks (the paragraphs markdownToDocument shows for it, in the same order).
 */
export function blocksByBlankLines(markdown: string): MarkdownBlock[] {
  const spans: { start: number; end: number }[] = [];
  const separator = /\n{2,}/g;
  let from = 0;
  const push = (start: number, end: number) => {
    if (markdown.slice(start, end).trim() !== '') spans.push({ start, end });
  };
  for (let m = separator.exec(markdown); m; m = separator.exec(markdown)) {
    push(from, m.index);
    from = m.index + m[0].length;
  }
  push(from, markdown.length);
  return keyed(markdown, spans);
}

/**
 * The block key a client sent, as a key of the split: GitBook documents may
 * carry several nodes for one markdown block (a footnote's paragraphs), keyed
 * `<key>.2`, `<key>.3`…; they all name that block.
 */
export function blockKeyOf(key: string): string {
  const dot = key.indexOf('.');
  return dot === -1 ? key : key.slice(0, dot);
}
