/**
 * Markdown of pages: analysis (links, sections), the link convention and
 * its resolution, and conversion to and from GitBook's JSON documents.
 */
export {
  analyzeMarkdown,
  type MarkdownAnalysis,
  type MarkdownLink,
  type MarkdownSection,
  type SourcePosition,
} from './analyze';
export {
  classifyHref,
  createLinkTargets,
  hrefForRef,
  resolveLink,
  type ClassifiedHref,
  type LinkKind,
  type LinkTargets,
  type ResolvedLink,
} from './links';
export { markdownToDocument, documentToMarkdown, type ToDocumentOptions, type FromDocumentOptions } from './document';
export type * from './document-types';
export { parseMarkdown, stringifyMarkdown, plainText, MarkdownTooComplexError } from './parse';
export { slugify, uniqueSlug, AnchorSlugger, MAX_SLUG_LENGTH } from './slug';
export {
  checkMarkdownLimits,
  measureMarkdown,
  MARKDOWN_LIMITS,
  type LimitBreach,
  type LimitReason,
  type MarkdownLimits,
  type MarkdownShape,
} from './limits';
export { degradedAnalysis, degradedDocument, degradedNote, type Degradation, type DegradedReason } from './degraded';
