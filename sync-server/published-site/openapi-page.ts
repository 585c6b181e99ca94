import { createHash, randomBytes } from 'node:crypto';
import { replaceOpenApiBlocks } from '../../shared/markdown/openapi-block';
import { escapeHtml } from '../markdown/site-html';
import { openApiBlockHtml, type Highlighter } from './openapi-blocks';
import type { OpenApiSource } from './openapi-source';

/**
 * API reference blocks in a published page. The page's markdown is parsed in the parse pool and
 * cached by its text; a block's HTML depends on the spec's latest version instead. So each block
 * is replaced by a marker line before parsing (a paragraph of letters and digits, which markdown
 * leaves as it is) and the marker's paragraph by the block's HTML after. The marker is derived
 * from a secret of this process and the page's text: a page cannot forge another block's marker,
 * and the same text gives the same markers (the parse cache still hits).
 */

const SECRET = randomBytes(16);

export interface PageWithBlocks {
  /** The markdown to parse (blocks as markers). */
  markdown: string;
  /** The body HTML with each marker replaced by its block. */
  fill(html: string, source: OpenApiSource | undefined, highlight?: Highlighter): Promise<string>;
}

export function withOpenApiBlocks(markdown: string): PageWithBlocks {
  const token = `folioapi${createHash('sha256').update(SECRET).update(markdown).digest('hex').slice(0, 24)}`;
  const replaced = replaceOpenApiBlocks(markdown, (i) => `${token}x${i}`);
  const { blocks } = replaced;
  if (blocks.length === 0) return { markdown, fill: (html) => Promise.resolve(html) };
  const lines = markdown.split('\n');
  return {
    markdown: replaced.markdown,
    async fill(html, source, highlight) {
      const rendered = await Promise.all(blocks.map((b) => openApiBlockHtml(source, b, highlight)));
      const marker = new RegExp(`(<p>)?${token}x(\\d+)(</p>)?`, 'g');
      return html.replace(marker, (_, open: string | undefined, i: string, close: string | undefined) => {
        const b = blocks[Number(i)];
        if (!b) return '';
        // A paragraph of its own: the block. Elsewhere (a page shown as plain text): the block's text as written.
        return open && close
          ? rendered[Number(i)]!
          : `${open ?? ''}${escapeHtml(lines.slice(b.startLine, b.endLine).join('\n'))}${close ?? ''}`;
      });
    },
  };
}
