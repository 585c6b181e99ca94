import type { TranslationEngine } from './engine';
import { throwIfAborted } from './errors';
import { applyGlossary, glossaryMatcher, glossaryTerms, restoreGlossary, type GlossaryEntry } from './glossary';
import { lookUp, memoryKey, type TranslationMemory } from './memory';
import { assemblePage, segmentPages, type MarkdownSegmenter, type PageSegments, type PageText } from './page-text';
import { hasProse, samePlaceholders } from '../../shared/markdown/translation/placeholders';
import { sendToEngine, type Work } from './send';

/**
 * A translation run over pages: segment every page, enforce the glossary, take what the memory
 * already holds, send the rest to the engine in batches (send.ts: retries, structure check, memory
 * writes), and put the translations back into each page.
 */

export interface TranslatePagesOptions {
  /** GitBook language codes (shared/languages.ts). */
  from: string;
  to: string;
  /** Plain text; read only by engines that support instructions. */
  instructions?: string;
  glossary: readonly GlossaryEntry[];
  signal: AbortSignal;
  memory?: TranslationMemory;
  /**
   * Segments the pages' markdown off the event loop: the server's parse pool,
   * `(markdown) => ctx.markdown.segments(markdown)`. Without one the markdown is parsed on this
   * thread, a page at a time (unit tests, callers without a pool).
   */
  segmenter?: MarkdownSegmenter;
  /**
   * Called once the memory has been read and after each engine call: pages completely translated so
   * far, and distinct segments translated (memory hits included) out of all the run needs.
   */
  onProgress?: (done: { pages: number; segments: number; totalSegments: number }) => void | Promise<void>;
}

export interface TranslatePagesResult {
  pages: Map<string, PageText>;
  /** Words of source text sent to the engine (memory hits and repeats within the run excluded). */
  words: number;
  /** Distinct segments sent to the engine (a structure retry is not counted again). */
  segmentsSent: number;
  /** Pages whose markdown was kept untranslated (too large, too deeply nested or too slow to parse), with why. */
  untranslated: { pageId: string; reason: string }[];
}

/** One segment's place in the run: which work item answers it, and its glossary restorations. */
interface Slot {
  key: string;
  firstGlossaryNumber: number;
  restorations: string[];
}

/** What the run must translate: distinct texts (by memory key), and for each page's segments the slot answering it. */
function plan(
  engine: TranslationEngine,
  pages: readonly { id: string; text: PageText }[],
  segmented: readonly PageSegments[],
  options: TranslatePagesOptions,
  instructions: string,
): { works: Map<string, Work>; slots: (Slot | undefined)[][] } {
  const terms = glossaryTerms(options.glossary, options.from, options.to);
  const matcher = glossaryMatcher(terms);
  const works = new Map<string, Work>();
  const slots = segmented.map((page, pageIndex) =>
    page.all.map((segment): Slot | undefined => {
      if (!hasProse(segment.text)) return undefined;
      const firstGlossaryNumber = segment.protected.length + 1;
      const glossary = applyGlossary(segment.text, firstGlossaryNumber, terms, matcher);
      const key = memoryKey({
        engine: engine.fingerprint,
        from: options.from,
        to: options.to,
        instructions,
        terms: glossary.applied,
        text: glossary.text,
      });
      if (!works.has(key))
        works.set(key, {
          key,
          text: glossary.text,
          terms: glossary.applied,
          page: pages[pageIndex]!,
          segment: segment.text,
        });
      return { key, firstGlossaryNumber, restorations: glossary.restorations };
    }),
  );
  return { works, slots };
}

/** Counts the pages whose every text is translated, as keys get their translation. */
function pageProgress(slots: readonly (Slot | undefined)[][]) {
  const remaining = slots.map((page) => new Set(page.flatMap((slot) => (slot ? [slot.key] : []))));
  const pagesOfKey = new Map<string, number[]>();
  remaining.forEach((keys, pageIndex) => {
    for (const key of keys) pagesOfKey.set(key, [...(pagesOfKey.get(key) ?? []), pageIndex]);
  });
  let done = remaining.filter((keys) => keys.size === 0).length;
  return {
    resolve(key: string) {
      for (const pageIndex of pagesOfKey.get(key) ?? [])
        if (remaining[pageIndex]!.delete(key) && remaining[pageIndex]!.size === 0) done++;
    },
    get done() {
      return done;
    },
  };
}

export async function translatePages(
  engine: TranslationEngine,
  pages: readonly { id: string; text: PageText }[],
  options: TranslatePagesOptions,
): Promise<TranslatePagesResult> {
  throwIfAborted(options.signal);
  const instructions = engine.supportsInstructions ? (options.instructions?.trim() ?? '') : '';
  const segmented: PageSegments[] = await segmentPages(pages, options.signal, options.segmenter);
  const { works, slots } = plan(engine, pages, segmented, options, instructions);

  const translations = new Map<string, string>();
  const progress = pageProgress(slots);
  for (const [key, value] of await lookUp(options.memory, [...works.keys()]))
    // A stored translation passed the structure check when it was stored; check again all the same.
    if (works.has(key) && samePlaceholders(works.get(key)!.text, value)) {
      translations.set(key, value);
      progress.resolve(key);
    }
  const report = () =>
    options.onProgress?.({ pages: progress.done, segments: translations.size, totalSegments: works.size });
  await report();

  const pending = [...works.values()].filter((w) => !translations.has(w.key));
  const sent = await sendToEngine(engine, pending, {
    from: options.from,
    to: options.to,
    instructions: instructions || undefined,
    signal: options.signal,
    memory: options.memory,
    onTranslated: async (batch) => {
      for (const [key, value] of batch) {
        translations.set(key, value);
        progress.resolve(key);
      }
      await report();
    },
  });

  const result = new Map<string, PageText>();
  const untranslated: TranslatePagesResult['untranslated'] = [];
  pages.forEach((page, pageIndex) => {
    const segments = segmented[pageIndex]!;
    const texts = slots[pageIndex]!.map((slot) => {
      const value = slot && translations.get(slot.key);
      return slot && value !== undefined
        ? restoreGlossary(value, slot.firstGlossaryNumber, slot.restorations)
        : undefined;
    });
    result.set(page.id, assemblePage(page.text, segments, texts));
    if (segments.untranslatedReason) untranslated.push({ pageId: page.id, reason: segments.untranslatedReason });
  });
  return { pages: result, words: sent.words, segmentsSent: sent.segments, untranslated };
}
