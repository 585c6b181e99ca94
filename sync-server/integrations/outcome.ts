import type { DeliveryResult, TraceEntry } from './types';
import { traceEntry } from './trace';

/**
 * What a delivery means for its event. An answer with a 2xx status is a success; for a `fetch`
 * event (a public endpoint's request) any answer below 500 is — a 401 to a badly signed webhook is
 * the integration doing its job. A 5xx or a 429 is the integration (or its upstream) in trouble
 * right now: a background event is tried again. Any other 4xx is the integration refusing the event
 * (the runtime answers 406 to an event type it has no handler for): trying again changes nothing.
 */
export type Verdict =
  | { status: 'success'; trace: TraceEntry[] }
  | { status: 'failed'; reason: string; retryable: boolean; trace: TraceEntry[] };

/** The start of an error answer's body (the runtime's `{"error": "..."}`), for the trace. */
function bodyExcerpt(body: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body.subarray(0, 600)).trim();
  return text ? `: ${text.length > 500 ? `${text.slice(0, 500)}…` : text}` : '';
}

export function verdictOf(type: string, result: DeliveryResult, now: Date): Verdict {
  if (!result.ok) return { status: 'failed', reason: result.reason, retryable: result.retryable, trace: result.trace };
  const { status, body } = result.response;
  const success = type === 'fetch' ? status < 500 : status >= 200 && status < 300;
  if (success) return { status: 'success', trace: result.trace };
  const reason = `The integration answered ${status}${bodyExcerpt(body)}`;
  return {
    status: 'failed',
    reason,
    retryable: status >= 500 || status === 429,
    trace: [...result.trace, traceEntry(now, 'error', reason)],
  };
}
