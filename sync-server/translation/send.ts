import { makeBatches } from './batches';
import type { TranslationEngine } from './engine';
import { throwIfAborted, TranslateError } from './errors';
import type { GlossaryTerm } from './glossary';
import type { TranslationMemory } from './memory';
import { samePlaceholders } from '../../shared/markdown/translation/placeholders';
import { withRetries } from './retry';
import { countWords } from './words';

/**
 * The engine calls of a run: batches within the engine's limits, one call at a time (an engine is
 * usually one server or one rate limit: parallel calls would only meet its 429s sooner), each retried
 * with backoff while it fails in a way that may pass, and each answer checked segment by segment:
 * a translation must hold exactly its text's placeholders. The good ones are stored in the memory at
 * once (a run killed later keeps what was paid for); the broken ones are asked again, alone in a
 * call of their own, at most STRUCTURE_RETRIES times before the run fails with STRUCTURE_BROKEN.
 */

/** Asks again for a broken segment at most this many times: a model that drops a placeholder twice rarely keeps it the third time. */
export const STRUCTURE_RETRIES = 2;

/** One distinct text to translate (several segments of the run may share it). */
export interface Work {
  /** Its translation-memory key. */
  key: string;
  /** The text sent: placeholders, glossary terms included. */
  text: string;
  terms: readonly GlossaryTerm[];
  /** The first page that has it, for an error message. */
  page: { id: string; text: { title: string } };
  /** The segment's text before the glossary (what the message quotes). */
  segment: string;
}

export interface SendOptions {
  from: string;
  to: string;
  instructions?: string;
  signal: AbortSignal;
  memory?: TranslationMemory;
  /** Called after each engine call with the translations that passed the check. */
  onTranslated: (translations: Map<string, string>) => Promise<void>;
}

function structureBroken(engine: TranslationEngine, work: Work): TranslateError {
  const excerpt = work.segment.length > 80 ? `${work.segment.slice(0, 80)}…` : work.segment;
  return new TranslateError(
    'STRUCTURE_BROKEN',
    `${engine.label} kept losing or adding the placeholders ⟦n⟧ (code, links, formatting) of a passage of ` +
      `the page "${work.page.text.title}" (${work.page.id}) after ${STRUCTURE_RETRIES + 1} tries, so its ` +
      `markdown could not be put back together: "${excerpt}"`,
    false,
  );
}

/** Translates `works`; resolves with what was sent (words and distinct segments). */
export async function sendToEngine(
  engine: TranslationEngine,
  works: readonly Work[],
  options: SendOptions,
): Promise<{ words: number; segments: number }> {
  const failures = new Map<string, number>();
  let words = 0;
  let segments = 0;
  let queue = works;
  let limits = engine.limits;
  while (queue.length > 0) {
    const broken: Work[] = [];
    for (const batch of makeBatches(queue, (w) => w.text.length, limits)) {
      throwIfAborted(options.signal);
      const terms = [...new Set(batch.flatMap((w) => w.terms))];
      const outputs = await withRetries(
        () =>
          engine.translateBatch(
            batch.map((w) => w.text),
            { from: options.from, to: options.to, instructions: options.instructions, terms, signal: options.signal },
          ),
        engine.retry,
        options.signal,
      );
      const good = new Map<string, string>();
      batch.forEach((work, i) => {
        if (!failures.has(work.key)) {
          words += countWords(work.text);
          segments++;
          failures.set(work.key, 0);
        }
        const output = outputs[i];
        if (output !== undefined && samePlaceholders(work.text, output)) return void good.set(work.key, output);
        const count = failures.get(work.key)! + 1;
        if (count > STRUCTURE_RETRIES) throw structureBroken(engine, work);
        failures.set(work.key, count);
        broken.push(work);
      });
      if (good.size > 0) await options.memory?.put(good);
      await options.onTranslated(good);
    }
    // Broken segments go again one per call: alone, a model has nothing else to mix them up with.
    queue = broken;
    limits = { ...engine.limits, maxSegments: 1 };
  }
  return { words, segments };
}
