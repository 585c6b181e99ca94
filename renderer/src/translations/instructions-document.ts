import type { DocumentNode, JSONDocument } from './translations-api';

/**
 * Instructions are a GitBook JSONDocument on the wire and plain text in the app (one paragraph per
 * line): an engine reads them as text, and a textarea is all a person needs to write "Keep product
 * names in English". Both ways, so what the app saves reads back the same.
 */

/** The text as a document: one paragraph per line; blank lines at either end are dropped. */
export function documentFromText(text: string): JSONDocument {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0]!.trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  return {
    object: 'document',
    data: {},
    nodes: lines.map((line) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line.trimEnd(), marks: [] }] }],
    })),
  };
}

/**
 * The document as text: each block that holds text is a line (a document written elsewhere, with
 * lists or headings, still reads as its words in order; marks and formatting are not kept).
 */
export function textFromDocument(doc: JSONDocument | null | undefined): string {
  if (!doc || !Array.isArray(doc.nodes)) return '';
  const lines: string[] = [];
  const walkBlock = (node: DocumentNode) => {
    const children = node.nodes ?? [];
    // A block of blocks (a list, a quote) is its blocks' lines; a block of inlines and texts is one line.
    if (children.some((child) => child.object === 'block')) children.forEach(walkBlock);
    else lines.push(inlineText(node));
  };
  doc.nodes.forEach(walkBlock);
  return lines.join('\n').trim();
}

function inlineText(node: DocumentNode): string {
  if (node.leaves) return node.leaves.map((leaf) => leaf.text ?? '').join('');
  return (node.nodes ?? []).map(inlineText).join('');
}

/** Whether the document says nothing (no instructions). */
export function isEmptyDocument(doc: JSONDocument | null | undefined): boolean {
  return textFromDocument(doc) === '';
}
