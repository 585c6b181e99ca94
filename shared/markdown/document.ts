/**
 * Conversions between page markdown and GitBook's JSON document model, in
 * both directions (see to-document.ts and from-document.ts).
 */
export { markdownToDocument, type ToDocumentOptions } from './to-document';
export { documentToMarkdown, type FromDocumentOptions } from './from-document';
export { MarkdownTooComplexError } from './parse';
export type {
  DocBlock,
  DocFragment,
  DocInline,
  DocLeaf,
  DocMark,
  DocRef,
  DocText,
  JSONDocument,
} from './document-types';
