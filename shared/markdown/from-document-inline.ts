import type { PhrasingContent } from 'mdast';
import type { DocBlock, DocInline, DocLeaf, DocRef, DocText } from './document-types';
import { hrefForRef } from './links';
import type { MarkType } from './document-types';

/**
 * GitBook inline nodes -> mdast phrasing content. Leaves carry flat mark
 * lists; markdown needs nesting, so consecutive leaves sharing a mark are
 * wrapped together (the longest run first) to avoid `**a****b**`.
 */

/** Options shared by the document -> markdown converters. */
export interface HrefContext {
  /** The href to write for a reference; default: canonical by-id forms (hrefForRef). */
  hrefFor: (ref: DocRef) => string;
}

const WRAPPERS = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;
type Wrapper = keyof typeof WRAPPERS;
const WRAP_ORDER: readonly Wrapper[] = ['bold', 'italic', 'strikethrough'];

function marksOf(leaf: DocLeaf): Set<MarkType> {
  return new Set(
    leaf.marks
      .map((m) => m.type)
      .filter((t): t is MarkType => t === 'bold' || t === 'italic' || t === 'strikethrough' || t === 'code'),
  );
}

function wrap(leaves: readonly DocLeaf[], applied: ReadonlySet<MarkType>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  const sets = leaves.map(marksOf);
  let i = 0;
  while (i < leaves.length) {
    const marks = sets[i]!;
    let best: Wrapper | undefined;
    let bestLen = 0;
    for (const m of WRAP_ORDER) {
      if (!marks.has(m) || applied.has(m)) continue;
      let j = i;
      while (j < leaves.length && sets[j]!.has(m)) j++;
      if (j - i > bestLen) [best, bestLen] = [m, j - i];
    }
    if (best === undefined) {
      const text = leaves[i]!.text;
      out.push(marks.has('code') ? { type: 'inlineCode', value: text } : { type: 'text', value: text });
      i++;
      continue;
    }
    const children = wrap(leaves.slice(i, i + bestLen), new Set([...applied, best]));
    out.push({ type: WRAPPERS[best], children } as PhrasingContent);
    i += bestLen;
  }
  return out;
}

/** Phrasing content of a text node. */
export function textPhrasing(text: DocText, inTableCell = false): PhrasingContent[] {
  // A GFM table row is one line: newlines inside a cell would end the table.
  const leaves = inTableCell ? text.leaves.map((l) => ({ ...l, text: l.text.replace(/\n/g, ' ') })) : text.leaves;
  return wrap(
    leaves.filter((l) => l.text !== ''),
    new Set(),
  );
}

function refOf(data: Record<string, unknown>, key = 'ref'): DocRef | undefined {
  const ref = data[key];
  return typeof ref === 'object' && ref !== null && typeof (ref as { kind?: unknown }).kind === 'string'
    ? (ref as DocRef)
    : undefined;
}

/** The href of a node's `data.ref` ('' when missing). */
export function hrefOf(data: Record<string, unknown>, ctx: HrefContext): string {
  const ref = refOf(data);
  return ref ? ctx.hrefFor(ref) : '';
}

/** Phrasing content of a block's or inline's `nodes` (text, links, images; unknown inlines keep their text). */
export function phrasing(nodes: DocBlock['nodes'], ctx: HrefContext, inTableCell = false): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text') out.push(...textPhrasing(node, inTableCell));
    else if (node.object === 'inline') out.push(...inline(node, ctx, inTableCell));
  }
  return out;
}

function inline(node: DocInline, ctx: HrefContext, inTableCell: boolean): PhrasingContent[] {
  switch (node.type) {
    case 'link':
      return [{ type: 'link', url: hrefOf(node.data, ctx), children: phrasing(node.nodes, ctx, inTableCell) }];
    case 'inline-image': {
      const alt = typeof node.data.alt === 'string' ? node.data.alt : '';
      return [{ type: 'image', url: hrefOf(node.data, ctx), alt }];
    }
    default:
      return phrasing(node.nodes, ctx, inTableCell);
  }
}

/** Default href context. */
export const DEFAULT_HREFS: HrefContext = { hrefFor: hrefForRef };
