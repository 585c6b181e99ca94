/**
 * The one error a translation run fails with. `code` says what went wrong in words an admin can act
 * on; `retryable` says whether running the job again later may succeed (the engine was down, slow or
 * rate-limited) or not (no engine, a refused key, a language the engine lacks, broken answers).
 */

export type TranslateErrorCode =
  /** No engine is configured (FOLIO_TRANSLATE_URL …). */
  | 'NO_ENGINE'
  /** The engine could not be reached (connection refused, timeout, DNS, an address the server may not connect to). */
  | 'ENGINE_UNREACHABLE'
  /** The engine refused the request: a bad key, an unsupported language, a request it will never accept. */
  | 'ENGINE_REFUSED'
  /** The engine failed (5xx, 429, an answer that is not what was asked for). */
  | 'ENGINE_ERROR'
  /** The engine's answers kept losing or inventing placeholders, so the markdown could not be put back together. */
  | 'STRUCTURE_BROKEN'
  /** The run's signal was aborted (the job was cancelled or the server is stopping). */
  | 'ABORTED';

export class TranslateError extends Error {
  constructor(
    readonly code: TranslateErrorCode,
    message: string,
    readonly retryable: boolean,
    /** How long the engine asked us to wait before trying again (its Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TranslateError';
  }
}

/** The error a run gets when no engine is configured: it tells the admin what to set. */
export function noEngineError(): TranslateError {
  return new TranslateError(
    'NO_ENGINE',
    'No translation engine is configured. Set FOLIO_TRANSLATE_URL to a LibreTranslate server ' +
      '(and FOLIO_TRANSLATE_KEY if it needs one), or FOLIO_TRANSLATE_URL, FOLIO_TRANSLATE_MODEL and ' +
      'FOLIO_TRANSLATE_KEY for an OpenAI-compatible API, then restart the server.',
    false,
  );
}

export function abortedError(): TranslateError {
  return new TranslateError('ABORTED', 'The translation was cancelled.', false);
}

/** Throws ABORTED when the run's signal is aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortedError();
}
