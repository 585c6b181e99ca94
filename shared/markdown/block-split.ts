import { blocksByBlankLines, blocksOfNodes, type MarkdownBlock } from './block-keys';
import { MarkdownTooComplexError, parseMarkdown, withDepthGuard } from './parse';

/*
 * Apart from block-keys.ts because it parses: the server's boot path imports the keys (the
 * change-request batch code) but only the markdown worker splits, so the parser stays off it.
 */

/** Parses `markdown` (call it off the event loop: see the server's markdown service) and returns its blocks. */
export function splitBlocks(markdown: string): MarkdownBlock[] {
  try {
    return withDepthGuard(() => blocksOfNodes(markdown, parseMarkdown(markdown).children));
  } catch (err) {
    if (!(err instanceof MarkdownTooComplexError)) throw err;
    return blocksByBlankLines(markdown);
  }
}
