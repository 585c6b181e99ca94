/**
 * The subset of GitBook's JSON document model (JSONDocument and the
 * DocumentBlock* / DocumentInline* / DocumentText schemas) that Folio reads
 * and writes. Node `type`s outside this subset may appear in documents
 * received from elsewhere; converters must tolerate them (see
 * documentToMarkdown), hence the open `string` in the generic node shapes.
 */

/** Marks Folio maps to markdown. */
export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code';

/** DocumentTextMark. */
export interface DocMark {
  object: 'mark';
  type: MarkType | string;
}

/** DocumentTextLeaf: a run of text sharing the same marks. */
export interface DocLeaf {
  object: 'leaf';
  text: string;
  marks: DocMark[];
}

/** DocumentText. */
export interface DocText {
  object: 'text';
  leaves: DocLeaf[];
}

/** GitBook ContentRef kinds Folio produces. */
export type DocRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string; page?: string };

/** An inline node (link, inline-image, ...). */
export interface DocInline {
  object: 'inline';
  type: 'link' | 'inline-image' | string;
  data: Record<string, unknown>;
  nodes?: (DocText | DocInline)[];
  isVoid?: boolean;
}

/** DocumentFragment (image captions, table cells). */
export interface DocFragment {
  object: 'fragment';
  fragment: string;
  type?: string;
  nodes: DocBlock[];
}

/** A block node. */
export interface DocBlock {
  object: 'block';
  type: string;
  data: Record<string, unknown>;
  nodes?: (DocBlock | DocInline | DocText)[];
  isVoid?: boolean;
  fragments?: DocFragment[];
  meta?: { id: string };
  /** GitBook's node key: Folio gives one to each top-level block (block-keys.ts). */
  key?: string;
}

/** JSONDocument. */
export interface JSONDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: DocBlock[];
}

/** Hint styles GitBook knows. */
export type HintStyle = 'info' | 'warning' | 'danger' | 'success';
