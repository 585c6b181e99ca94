import { getJson, postJson, type EngineHttp } from './http';
import type { BatchRequest, TranslationEngine } from './engine';
import { TranslateError } from './errors';
import { libreTranslatePair, parseLanguageList, type ListedLanguage } from './libretranslate-languages';
import type { RetryPolicy } from './retry';

/**
 * A LibreTranslate-compatible engine: `POST {url}/translate` with `{q: [...], source, target,
 * format: "html", api_key?}`, answered by `{translatedText: [...]}` (see libretranslate-html.ts for
 * how placeholders survive). It cannot be steered by instructions.
 */

/**
 * 25 segments and 5,000 characters a call: LibreTranslate translates a batch sentence by sentence
 * on the server's CPU (seconds per thousand characters on a small machine), so a call stays well
 * inside the 120 s timeout and a failed call costs little to repeat; admins who set LT_CHAR_LIMIT
 * usually set it in the thousands.
 */
export const LIBRETRANSLATE_LIMITS = { maxSegments: 25, maxChars: 5_000 };

/** How long a server's language list is trusted before it is read again (models can be installed meanwhile). */
const LANGUAGES_TTL_MS = 10 * 60_000;

export interface LibreTranslateOptions {
  url: string;
  key?: string;
  http: EngineHttp;
  retry: RetryPolicy;
}

export function createLibreTranslate(options: LibreTranslateOptions): TranslationEngine {
  const base = options.url.replace(/\/+$/, '');
  const label = `LibreTranslate at ${base}`;
  let languages: { list: ListedLanguage[] | undefined; at: number } | undefined;

  /** The server's languages (undefined when it does not list them: older or partial implementations). */
  async function listedLanguages(signal: AbortSignal): Promise<ListedLanguage[] | undefined> {
    if (languages && Date.now() - languages.at < LANGUAGES_TTL_MS) return languages.list;
    try {
      const list = parseLanguageList(await getJson(options.http, { url: `${base}/languages`, signal, engine: label }));
      languages = { list, at: Date.now() };
      return list;
    } catch (err) {
      if (err instanceof TranslateError && err.code === 'ABORTED') throw err;
      // The list is a convenience: without it the run uses the usual codes and /translate will say.
      return undefined;
    }
  }

  return {
    kind: 'libretranslate',
    supportsInstructions: false,
    fingerprint: `libretranslate ${base}`,
    label,
    limits: LIBRETRANSLATE_LIMITS,
    retry: options.retry,
    async translateBatch(texts: readonly string[], request: BatchRequest) {
      // Loaded with the first batch: its entity table (character-entities) is not for the server's start.
      const { fromEngineHtml, toEngineHtml } = await import('./libretranslate-html');
      const pair = libreTranslatePair(request.from, request.to, await listedLanguages(request.signal), label);
      const answer = (await postJson(options.http, {
        url: `${base}/translate`,
        body: {
          q: texts.map(toEngineHtml),
          source: pair.source,
          target: pair.target,
          format: 'html',
          ...(options.key ? { api_key: options.key } : {}),
        },
        signal: request.signal,
        engine: label,
        key: options.key,
      })) as { translatedText?: unknown } | null;
      const translated = answer?.translatedText;
      // A server may answer a one-element batch with a plain string.
      const list = Array.isArray(translated)
        ? translated
        : typeof translated === 'string' && texts.length === 1
          ? [translated]
          : undefined;
      if (!list) throw new TranslateError('ENGINE_ERROR', `${label} answered without translatedText`, true);
      return texts.map((_, i) => (typeof list[i] === 'string' ? fromEngineHtml(list[i]) : undefined));
    },
  };
}
