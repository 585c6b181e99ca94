import { abortedError, TranslateError } from './errors';

/**
 * Retries of engine calls that may pass a second time (network, timeout, 408, 429, 5xx): exponential
 * backoff with jitter, so many runs hitting one rate-limited engine do not all come back at the
 * same instant, and the engine's Retry-After honoured up to a cap (a server asking for an hour would
 * otherwise hold the job that long).
 */

export interface RetryPolicy {
  /** Calls in all, the first included. */
  maxAttempts: number;
  /** The first wait; each next one doubles. */
  baseDelayMs: number;
  /** The longest wait between two calls, Retry-After included. */
  maxDelayMs: number;
}

export const RETRY_DEFAULTS: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000 };

/** The wait before attempt `attempt + 1` ("equal jitter": half fixed, half random). */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  random = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** Waits `ms`, or rejects with ABORTED as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `call`, again after a backoff while it fails with a retryable TranslateError. */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof TranslateError) || !err.retryable || attempt >= policy.maxAttempts) throw err;
      await sleep(backoffDelay(policy, attempt, err.retryAfterMs), signal);
    }
  }
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
