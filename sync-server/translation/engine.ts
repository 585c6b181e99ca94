import type { GlossaryTerm } from './glossary';
import type { RetryPolicy } from './retry';

/**
 * What an engine is to the rest of the translation code: something that turns a batch of segment
 * texts (placeholders inside) into translations, one call at a time. Batching, retries, the structure
 * check, the glossary and the memory are the run's (translate-pages.ts), the same for every engine.
 */

export type EngineKind = 'libretranslate' | 'openai';

/** From Config.translateEngine / translateUrl / translateKey / translateModel. */
export type EngineSettings = { engine: EngineKind | undefined; url?: string; key?: string; model?: string };

/** The most one call carries. */
export interface BatchLimits {
  maxSegments: number;
  /** Characters of segment text in all. */
  maxChars: number;
}

export interface BatchRequest {
  /** GitBook language codes (shared/languages.ts). */
  from: string;
  to: string;
  /** The user's instructions (plain text); only engines that support them read them. */
  instructions?: string;
  /** The glossary terms applied in this batch (already placeholders in the texts). */
  terms: readonly GlossaryTerm[];
  signal: AbortSignal;
}

export interface TranslationEngine {
  readonly kind: EngineKind;
  /** Whether `instructions` can steer the translation (an LLM can; LibreTranslate cannot). */
  readonly supportsInstructions: boolean;
  /** What produces the translations (kind, URL, model): part of every translation-memory key. */
  readonly fingerprint: string;
  /** The engine's name in messages ("LibreTranslate at https://…"); never holds the key. */
  readonly label: string;
  readonly limits: BatchLimits;
  readonly retry: RetryPolicy;
  /**
   * One call: a translation per text, in order (`undefined` where the answer lacks one). Throws
   * TranslateError; does not retry, and does not check placeholders.
   */
  translateBatch(texts: readonly string[], request: BatchRequest): Promise<(string | undefined)[]>;
}
