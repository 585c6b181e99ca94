import type { Element, ElementContent, Nodes, Root } from 'hast';
import { HIGHLIGHT_LIMITS, highlightCode } from './highlight';

/**
 * Highlights the fenced code of a sanitized page tree in place: each
 * `pre > code.language-x` of a known language gets token spans (class names
 * only, see highlight.ts) inside one `span.line` per line. Code too long, or
 * past the page's highlighting budget, stays plain; so does a language Shiki
 * does not know.
 */
export function highlightCodeBlocks(tree: Root): void {
  let budget = HIGHLIGHT_LIMITS.pageChars;
  const visit = (node: Nodes) => {
    if (node.type === 'element' && node.tagName === 'pre') {
      const code = node.children[0];
      if (code?.type === 'element' && code.tagName === 'code') budget -= highlightOne(code, budget);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(textOf).join('') : '';
}

/** Highlights one `code` element; the characters it spent. */
function highlightOne(code: Element, budget: number): number {
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const lang = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
  if (!lang) return 0;
  const source = code.children.map(textOf).join('').replace(/\n$/, '');
  if (source.length > HIGHLIGHT_LIMITS.blockChars || source.length > budget) return 0;
  const lines = highlightCode(source, lang);
  if (!lines) return 0;
  const children: ElementContent[] = [];
  lines.forEach((tokens, i) => {
    const spans: ElementContent[] = tokens.map((t) =>
      t.className
        ? {
            type: 'element',
            tagName: 'span',
            properties: { className: t.className.split(' ') },
            children: [{ type: 'text', value: t.text }],
          }
        : { type: 'text', value: t.text },
    );
    children.push({ type: 'element', tagName: 'span', properties: { className: ['line'] }, children: spans });
    if (i < lines.length - 1) children.push({ type: 'text', value: '\n' });
  });
  code.children = children;
  code.properties.className = [...classes, 'shiki'];
  return source.length;
}
