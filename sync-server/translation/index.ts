/**
 * Translation of page text through a real engine (LibreTranslate or an OpenAI-compatible chat API):
 * markdown cut into segments (shared/markdown/translation/; in the server's parse pool when the run is
 * given a segmenter) with everything that is not prose protected by placeholders, a
 * glossary enforced, a memory of translations consulted, answers checked, and the pages put back
 * together byte-exact outside the prose.
 */
export type { EngineKind, EngineSettings, TranslationEngine, BatchLimits } from './engine';
export { engineFrom, requireEngine, type EngineOutbound } from './engine-from';
export { TranslateError, noEngineError, type TranslateErrorCode } from './errors';
export type { GlossaryEntry } from './glossary';
export type { TranslationMemory } from './memory';
export type { MarkdownSegmenter, PageText } from './page-text';
export { translatePages, type TranslatePagesOptions, type TranslatePagesResult } from './translate-pages';
export { countWords } from './words';
export { segmentMarkdown, type MarkdownSegments } from '../../shared/markdown/translation/markdown-segments';
export { RETRY_DEFAULTS, type RetryPolicy } from './retry';
