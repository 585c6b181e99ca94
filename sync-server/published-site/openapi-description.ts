import type { ElementContent, Root } from 'hast';
import { raw } from 'hast-util-raw';
import { defaultSchema, sanitize } from 'hast-util-sanitize';
import { toHast } from 'mdast-util-to-hast';
import { parseMarkdown } from '../../shared/markdown';

/**
 * A description of a spec (CommonMark, as OpenAPI says, often with HTML in it) as hast for the
 * published site. Unlike page markdown, whose raw HTML is dropped, a spec's HTML is kept: specs
 * are written for renderers that show it (GitBook, Redoc). It is parsed (hast-util-raw) and then
 * goes through the site's sanitizer with GitHub's schema, as page bodies do: no scripts, styles,
 * event handlers, frames, forms or `javascript:` URLs survive, ids are prefixed.
 */

/** Longer descriptions are shown as plain text (bounded parsing work per operation). */
const MAX_MARKDOWN = 100_000;

/** Text with nothing markdown or HTML would change (most property descriptions): no parsing needed. */
const PLAIN = /^[^*_`[\]<>#&!|~\\\n\r]*$/;

export function descriptionHast(markdown: string): ElementContent[] {
  if (markdown.length > MAX_MARKDOWN) return [{ type: 'text', value: markdown }];
  // Not a list item, nor an autolink (GFM links bare URLs and e-mail addresses).
  if (PLAIN.test(markdown) && !/^\s*([-+]|\d+[.)])\s/.test(markdown) && !/:\/\/|www\.|@/.test(markdown))
    return [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: markdown }] }];
  try {
    const hast = toHast(parseMarkdown(markdown), { allowDangerousHtml: true }) as Root;
    const clean = sanitize(raw(hast), defaultSchema) as Root;
    return clean.children.filter((c): c is ElementContent => c.type !== 'doctype');
  } catch {
    // Too deeply nested to parse: the text as written still reads.
    return [{ type: 'text', value: markdown }];
  }
}
