import type { IntegrationManifest } from '../store/integrations';
import type { IntegrationResponse } from './types';

/**
 * The HTTP edges of a `fetch` event (a request to an integration's public endpoint): what of the
 * incoming request goes into GitBook's FetchRequest, what of the integration's answer goes back,
 * and the manifest's Content-Security-Policy.
 */

/** Connection-level headers (RFC 9110 §7.6.1): they describe one hop, never the message. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Credentials a caller sent the integration: passed to it, never kept in the event's stored payload. */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key']);

/** The request headers as GitBook's FetchRequest holds them (one string per name). */
export function requestHeadersOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || lower === 'host') continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The same headers with credentials masked, for the event's stored payload. */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = CREDENTIALS.has(name) ? '[redacted]' : value;
  return out;
}

/**
 * The answer's headers to send on: hop-by-hop headers dropped, and the length (the server sets it
 * from the body it sends) and any policy of the integration's own replaced by the manifest's.
 */
export function responseHeadersOf(response: IntegrationResponse): [string, string][] {
  return response.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && lower !== 'content-length' && lower !== 'content-security-policy';
  });
}

/**
 * The manifest's `contentSecurityPolicy` as one header value: a string as it is, a per-directive
 * object as `directive sources; …` (GitBook's two forms). Undefined when the manifest sets none.
 */
export function contentSecurityPolicyOf(
  manifest: Pick<IntegrationManifest, 'contentSecurityPolicy'>,
): string | undefined {
  const csp = manifest.contentSecurityPolicy;
  if (csp === undefined) return undefined;
  const value =
    typeof csp === 'string'
      ? csp
      : Object.entries(csp)
          .map(([directive, sources]) => `${directive} ${sources}`.trim())
          .join('; ');
  // A header value holds no line breaks (they would split the response).
  const clean = value.replace(/[\r\n]+/g, ' ').trim();
  return clean || undefined;
}
