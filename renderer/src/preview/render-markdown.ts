import type { Element, Root as HastRoot } from 'hast';
import { toHast } from 'mdast-util-to-hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { parseMarkdown } from '../../../shared/markdown/parse';
import { liftGitbookBlocks, READING_SCHEMA, separateLiquidTags } from './gitbook-blocks';
import { PAGE_LINK_PREFIX } from './page-links';

/**
 * Markdown -> sanitized HTML for the preview, with Folio's link convention:
 * `/files/<id>` images resolve to the file's download URL, `/pages/<id>`
 * links become in-app links. The output goes through hast-util-sanitize's
 * GitHub schema: a page is written by any editor of the space, so raw HTML
 * in it (scripts, event handlers, javascript: URLs) must never reach the DOM.
 */

export { PAGE_LINK_PREFIX };

const FILE_REF = /^\/files\/([A-Za-z0-9_-]{1,64})$/;
const PAGE_REF = /^\/pages\/([A-Za-z0-9_-]{1,64})(#.*)?$/;

/** Options of renderMarkdown. */
export interface RenderOptions {
  /** The URL of a file by id, or undefined while it is not known (the image renders without a source). */
  fileUrl?: (fileId: string) => string | undefined;
}

/** The file ids `/files/<id>` images of `markdown` refer to. */
export function referencedFiles(markdown: string): string[] {
  const ids = new Set<string>();
  for (const m of markdown.matchAll(/\]\(\/files\/([A-Za-z0-9_-]{1,64})\)/g)) ids.add(m[1]!);
  return [...ids];
}

/** Renders page markdown to safe HTML. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const mdast = parseMarkdown(separateLiquidTags(markdown));
  liftGitbookBlocks(mdast);
  const hast = sanitize(toHast(mdast) as HastRoot, READING_SCHEMA) as HastRoot;
  // After sanitizing: the URLs put in here are the app's own (signed download URLs, or the object URL
  // of an image this window just uploaded, which the sanitizer's http(s)-only rule would drop).
  rewriteRefs(hast, options);
  return toHtml(hast);
}

function rewriteRefs(node: HastRoot | Element, options: RenderOptions): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    const props = child.properties;
    if (child.tagName === 'img' && typeof props.src === 'string') {
      const file = FILE_REF.exec(props.src);
      if (file) {
        const url = options.fileUrl?.(file[1]!);
        if (url) props.src = url;
        else delete props.src;
      }
    }
    if (child.tagName === 'a' && typeof props.href === 'string') {
      const page = PAGE_REF.exec(props.href);
      if (page) props.href = `${PAGE_LINK_PREFIX}${page[1]}`;
    }
    rewriteRefs(child, options);
  }
}
