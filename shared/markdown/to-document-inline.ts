import type { Definition, PhrasingContent } from 'mdast';
import type { DocInline, DocLeaf, DocMark, DocRef, DocText, MarkType } from './document-types';

/**
 * Phrasing content (mdast) -> GitBook inline nodes: runs of text leaves with
 * marks, link inlines and inline images. Nesting of emphasis in markdown
 * becomes a flat list of marks per leaf, in a canonical order.
 */

/** Canonical mark order (also the nesting order when writing markdown back). */
export const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

/** Options shared by the markdown -> document converters. */
export interface InlineContext {
  /** Maps an href to a reference; the default keeps every href as a URL. */
  resolve: (href: string) => DocRef;
  definitions: ReadonlyMap<string, Definition>;
}

type Piece = DocLeaf | DocInline;

function leaf(text: string, marks: readonly MarkType[]): DocLeaf {
  const sorted = MARK_ORDER.filter((m) => marks.includes(m));
  return { object: 'leaf', text, marks: sorted.map((type): DocMark => ({ object: 'mark', type })) };
}

/** Image refs may only be URLs or files (DocumentInlineImage / DocumentBlockImage). */
export function imageRef(href: string, ctx: InlineContext): DocRef {
  const ref = ctx.resolve(href);
  return ref.kind === 'url' || ref.kind === 'file' ? ref : { kind: 'url', url: href };
}

/** An inline-image node. */
export function inlineImage(href: string, alt: string | null | undefined, ctx: InlineContext): DocInline {
  const data: Record<string, unknown> = { ref: imageRef(href, ctx) };
  if (alt) data.alt = alt;
  return { object: 'inline', type: 'inline-image', data, isVoid: true };
}

function collect(
  nodes: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: InlineContext,
  out: Piece[],
): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push(leaf(node.value, marks));
        break;
      case 'inlineCode':
        out.push(leaf(node.value, [...marks, 'code']));
        break;
      case 'break':
        out.push(leaf('\n', marks));
        break;
      case 'strong':
        collect(node.children, [...marks, 'bold'], ctx, out);
        break;
      case 'emphasis':
        collect(node.children, [...marks, 'italic'], ctx, out);
        break;
      case 'delete':
        collect(node.children, [...marks, 'strikethrough'], ctx, out);
        break;
      case 'link':
        out.push(link(node.url, node.children, marks, ctx));
        break;
      case 'linkReference': {
        const def = ctx.definitions.get(node.identifier);
        if (def) out.push(link(def.url, node.children, marks, ctx));
        else collect(node.children, marks, ctx, out);
        break;
      }
      case 'image':
        out.push(inlineImage(node.url, node.alt, ctx));
        break;
      case 'imageReference': {
        const def = ctx.definitions.get(node.identifier);
        if (def) out.push(inlineImage(def.url, node.alt, ctx));
        break;
      }
      case 'html':
        // Raw HTML has no GitBook equivalent: keep it visible as text.
        out.push(leaf(node.value, marks));
        break;
      case 'footnoteReference':
        out.push(leaf(`[^${node.label ?? node.identifier}]`, marks));
        break;
    }
  }
}

function link(
  href: string,
  children: readonly PhrasingContent[],
  marks: readonly MarkType[],
  ctx: InlineContext,
): DocInline {
  const inner: Piece[] = [];
  collect(children, marks, ctx, inner);
  // A link's children are text and inline images only (DocumentInlineLink).
  const nodes = group(inner.filter((p) => p.object === 'leaf' || p.type === 'inline-image'));
  return {
    object: 'inline',
    type: 'link',
    data: { ref: ctx.resolve(href) },
    nodes: nodes.length > 0 ? nodes : [emptyText()],
    isVoid: false,
  };
}

const sameMarks = (a: DocLeaf, b: DocLeaf) =>
  a.marks.length === b.marks.length && a.marks.every((m, i) => m.type === b.marks[i]!.type);

/** Leaves between inlines become one text node; adjacent leaves with equal marks merge; empty leaves vanish. */
function group(pieces: readonly Piece[]): (DocText | DocInline)[] {
  const out: (DocText | DocInline)[] = [];
  let text: DocText | undefined;
  for (const p of pieces) {
    if (p.object === 'inline') {
      out.push(p);
      text = undefined;
      continue;
    }
    if (p.text === '') continue;
    if (!text) {
      text = { object: 'text', leaves: [] };
      out.push(text);
    }
    const last = text.leaves[text.leaves.length - 1];
    if (last && sameMarks(last, p)) last.text += p.text;
    else text.leaves.push(p);
  }
  return out;
}

/** A text node with one empty leaf (blocks with inline content are never left without a text node). */
export function emptyText(): DocText {
  return { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] };
}

/** Converts phrasing content to the `nodes` of a paragraph or heading. */
export function inlineNodes(nodes: readonly PhrasingContent[], ctx: InlineContext): (DocText | DocInline)[] {
  const pieces: Piece[] = [];
  collect(nodes, [], ctx, pieces);
  const grouped = group(pieces);
  return grouped.length > 0 ? grouped : [emptyText()];
}
