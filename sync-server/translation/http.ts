import { ERROR_BODY_BYTES, fetchOutbound, OutboundError, type AllowList } from '../outbound';
import { TranslateError } from './errors';
import { parseRetryAfter } from './retry';

/**
 * Calls to an engine, through the server's outbound fetcher (SSRF rules, FOLIO_OUTBOUND_ALLOW, pinned
 * addresses, timeouts), with its failures mapped to TranslateError: what is worth retrying, and a
 * message an admin can act on that never holds the key.
 */

export interface EngineHttp {
  allow: AllowList;
  connectTimeoutMs: number;
  /** One call, answer included: an engine on a CPU takes a while for a batch. */
  totalTimeoutMs: number;
  /** The largest answer read. */
  maxBytes: number;
}

export const ENGINE_HTTP_DEFAULTS: Omit<EngineHttp, 'allow'> = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 120_000,
  maxBytes: 8 * 1024 * 1024,
};

export interface JsonCall {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** The engine's name in messages ("LibreTranslate at https://…"). */
  engine: string;
  /** The API key, removed from any text that could reach a message. */
  key?: string;
}

/** `text` with the key blanked out, as given and URL-encoded (an engine may echo it in its error). */
export function redact(text: string, key: string | undefined): string {
  if (!key) return text;
  let out = text;
  for (const form of new Set([key, encodeURIComponent(key)])) out = out.split(form).join('[key]');
  return out;
}

/** The longest text of the engine's own quoted in a message. */
const MAX_ENGINE_TEXT = 300;

/** The error text of an engine's JSON answer: LibreTranslate's `{"error": "…"}`, OpenAI's `{"error": {"message": "…"}}`, FastAPI's `{"detail": "…"}`. */
function jsonErrorText(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { error, message, detail } = parsed as { error?: unknown; message?: unknown; detail?: unknown };
  const nested = error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
  return [error, nested, message, detail].find((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/**
 * What the engine said about a failed call: its own error text (from the first bytes of the answer
 * the outbound fetcher kept), the key blanked out before anything is cut (so no part of it is left),
 * on one line and short; and its Retry-After. A plain-text answer is quoted only when it is whole
 * and not HTML (a proxy's error page says nothing an admin needs).
 */
export function engineSaid(err: OutboundError, key: string | undefined): { text?: string; retryAfterMs?: number } {
  const retryAfterMs = parseRetryAfter(err.headers?.['retry-after']);
  const body = err.body?.toString('utf8').trim();
  if (!body) return { retryAfterMs };
  const plain = /^text\/plain\b/i.test(err.headers?.['content-type'] ?? 'text/plain');
  const whole = (err.body?.length ?? 0) < ERROR_BODY_BYTES;
  const raw = jsonErrorText(body) ?? (plain && whole && !body.startsWith('<') ? body : undefined);
  if (raw === undefined) return { retryAfterMs };
  const line = redact(raw, key)
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
  const text = line.length > MAX_ENGINE_TEXT ? `${line.slice(0, MAX_ENGINE_TEXT)}…` : line;
  return { text: text || undefined, retryAfterMs };
}

/** The TranslateError for a failed call. */
export function engineFailure(err: unknown, call: Pick<JsonCall, 'engine' | 'key'>): TranslateError {
  if (err instanceof TranslateError) return err;
  if (!(err instanceof OutboundError))
    return new TranslateError(
      'ENGINE_ERROR',
      `${call.engine} failed: ${redact(String((err as Error)?.message ?? err), call.key)}`,
      true,
    );
  const detail = (message: string) => redact(message, call.key);
  switch (err.code) {
    case 'aborted':
      return new TranslateError('ABORTED', 'The translation was cancelled.', false);
    case 'timeout':
    case 'connect-timeout':
    case 'network':
    case 'dns-failed':
      return new TranslateError(
        'ENGINE_UNREACHABLE',
        `${call.engine} could not be reached: ${detail(err.message)}`,
        true,
      );
    case 'refused-address':
      return new TranslateError(
        'ENGINE_UNREACHABLE',
        `${call.engine} is at an address the server does not connect to (${detail(err.message)}); ` +
          'an engine on a private network needs its host or range in FOLIO_OUTBOUND_ALLOW',
        false,
      );
    case 'invalid-url':
      return new TranslateError(
        'ENGINE_UNREACHABLE',
        `${call.engine}: ${detail(err.message)} (check FOLIO_TRANSLATE_URL)`,
        false,
      );
    case 'http-status': {
      const status = err.status ?? 0;
      const { text, retryAfterMs } = engineSaid(err, call.key);
      const said = text ? `: ${text}` : '';
      if (status === 408 || status === 429 || status >= 500) {
        const wait = retryAfterMs !== undefined ? ` (it asked to wait ${Math.ceil(retryAfterMs / 1000)} s)` : '';
        return new TranslateError(
          'ENGINE_ERROR',
          `${call.engine} answered ${status}${said}${wait}`,
          true,
          retryAfterMs,
        );
      }
      const hint =
        status === 401 || status === 403
          ? ' (check FOLIO_TRANSLATE_KEY)'
          : status === 404
            ? ' (check FOLIO_TRANSLATE_URL and FOLIO_TRANSLATE_MODEL)'
            : '';
      return new TranslateError(
        'ENGINE_REFUSED',
        `${call.engine} refused the request with ${status}${said}${hint}`,
        false,
      );
    }
    default:
      // An answer over the size limit, a redirect loop or a refused redirect: the same next time.
      return new TranslateError('ENGINE_ERROR', `${call.engine} failed: ${detail(err.message)}`, false);
  }
}

/** POSTs `body` as JSON and parses the JSON answer; throws TranslateError. */
export async function postJson(http: EngineHttp, call: JsonCall): Promise<unknown> {
  let text: string;
  try {
    const res = await fetchOutbound(call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...call.headers },
      body: Buffer.from(JSON.stringify(call.body)),
      allow: http.allow,
      connectTimeoutMs: http.connectTimeoutMs,
      totalTimeoutMs: http.totalTimeoutMs,
      maxBytes: http.maxBytes,
      signal: call.signal,
    });
    text = res.body.toString('utf8');
  } catch (err) {
    throw engineFailure(err, call);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TranslateError('ENGINE_ERROR', `${call.engine} answered something that is not JSON`, true);
  }
}

/** GETs a JSON document (LibreTranslate's /languages); throws TranslateError. */
export async function getJson(http: EngineHttp, call: Omit<JsonCall, 'body'>): Promise<unknown> {
  try {
    const res = await fetchOutbound(call.url, {
      headers: { accept: 'application/json', ...call.headers },
      allow: http.allow,
      connectTimeoutMs: http.connectTimeoutMs,
      totalTimeoutMs: Math.min(http.totalTimeoutMs, 20_000),
      maxBytes: http.maxBytes,
      signal: call.signal,
    });
    return JSON.parse(res.body.toString('utf8'));
  } catch (err) {
    if (err instanceof SyntaxError)
      throw new TranslateError('ENGINE_ERROR', `${call.engine} answered something that is not JSON`, true);
    throw engineFailure(err, call);
  }
}
