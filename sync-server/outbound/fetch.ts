import { EMPTY_ALLOW_LIST } from './address-policy';
import { OutboundError } from './errors';
import { parseOutboundUrl, pinAddress, systemResolver } from './pin';
import { followRedirect } from './redirect';
import { requestOnce, type Hop } from './request';
import { DEFAULTS, type OutboundOptions, type OutboundRequest, type OutboundResponse } from './types';

/**
 * The only way the server fetches a URL on a user's behalf (insert_files.url,
 * imports, OpenAPI specs, Git sync). SSRF defences:
 * - http and https only, no credentials in the URL;
 * - the host is resolved once, here, and EVERY address it resolves to must
 *   be a public unicast address (address-policy.ts) unless FOLIO_OUTBOUND_ALLOW
 *   covers it;
 * - the connection is pinned to the checked address (the socket's `lookup`
 *   returns it), so a second, different DNS answer (DNS rebinding) is never
 *   used; TLS still verifies the certificate against the host name;
 * - redirects are followed by hand (at most `maxRedirects`), each hop checked
 *   the same way, and only those redirect.ts allows for the method and the credentials;
 * - a connect timeout, a total timeout and a body size limit.
 */

// What fetch.ts exported before it was split up, for the modules and tests that import it directly.
export { OutboundError, type OutboundErrorCode } from './errors';
export { parseOutboundUrl, pinAddress, systemResolver } from './pin';
export { DEFAULTS, type OutboundOptions, type OutboundResponse, type Resolver } from './types';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Headers that describe the connection or the body's framing: the fetcher sets them itself. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);

/** The first hop of a request: method and headers normalized, a body only where a method takes one. */
function firstHop(url: URL, request: OutboundRequest): Hop {
  const method = (request.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) throw new TypeError(`fetchOutbound: unsupported method ${request.method}`);
  if (request.body !== undefined && (method === 'GET' || method === 'HEAD'))
    throw new TypeError(`fetchOutbound: a ${method} has no body`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {}))
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return { url, method, headers, body: request.body };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OutboundError('aborted', 'the fetch was cancelled');
}

/**
 * Sends `request` (a GET by default) to `rawUrl` under the SSRF rules above and reads the
 * answer; throws OutboundError on any refusal or failure, a non-2xx answer included
 * (code 'http-status', with its `status`, and its `headers` and the first bytes of its `body`
 * for a caller that reads an API's own error text or its Retry-After).
 */
export async function fetchOutbound(
  rawUrl: string,
  options: OutboundOptions & OutboundRequest = {},
): Promise<OutboundResponse> {
  const allow = options.allow ?? EMPTY_ALLOW_LIST;
  const resolver = options.resolver ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const deadline = Date.now() + (options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs);
  let hop = firstHop(parseOutboundUrl(rawUrl), options);
  for (let count = 0; ; count++) {
    throwIfAborted(options.signal);
    const pin = await pinAddress(hop.url, allow, resolver);
    throwIfAborted(options.signal);
    const outcome = await requestOnce(hop, pin, limits, deadline);
    if (!('redirect' in outcome)) return outcome;
    if (count >= maxRedirects) throw new OutboundError('too-many-redirects', `more than ${maxRedirects} redirects`);
    hop = followRedirect(hop, outcome.status, outcome.redirect);
  }
}
