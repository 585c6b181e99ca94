/**
 * Instructions travel as GitBook's JSONDocument; engines take plain text. A paragraph per line,
 * the text of every leaf of a block joined; other structure (marks, nesting) carries no meaning
 * to a translation engine.
 */

export interface JsonDocumentLike {
  object: 'document';
  data: Record<string, unknown>;
  nodes: unknown[];
}

export const EMPTY_INSTRUCTIONS: JsonDocumentLike = { object: 'document', data: {}, nodes: [] };

/** The text of any node: its leaves' text, its children's text, blocks on their own lines. */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { object?: unknown; text?: unknown; leaves?: unknown; nodes?: unknown };
  if (n.object === 'leaf') return typeof n.text === 'string' ? n.text : '';
  if (n.object === 'text') {
    if (Array.isArray(n.leaves)) return n.leaves.map(textOf).join('');
    return typeof n.text === 'string' ? n.text : '';
  }
  if (!Array.isArray(n.nodes)) return '';
  const parts = n.nodes.map(textOf);
  return n.object === 'block' && parts.some((p) => p.includes('\n')) ? parts.join('\n') : parts.join('');
}

/** The instructions as plain text ('' when there are none). */
export function instructionsText(doc: unknown): string {
  const nodes = (doc as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map(textOf)
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}
