import { OutboundError } from './errors';
import { parseOutboundUrl } from './pin';
import type { Hop } from './request';

/**
 * Which redirects a fetch follows, and with what:
 * - a GET or HEAD follows any redirect (as before, and as browsers do);
 * - any other method follows only 307 and 308, which keep the method and the body (301/302/303
 *   would turn a POST into a GET on the caller's behalf, which no caller of ours wants), and only
 *   when the body can be sent again (bytes, not a stream already consumed);
 * - credentials (Authorization, Proxy-Authorization, Cookie) never go to another origin: a GET
 *   drops them (the new origin may answer 401), any other method is refused there, since its body
 *   was written for the origin the caller trusted.
 */

const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** The next hop after `status` with `location` from `hop`; throws refused-redirect or invalid-url. */
export function followRedirect(hop: Hop, status: number, location: string): Hop {
  const next = parseOutboundUrl(location);
  const safe = hop.method === 'GET' || hop.method === 'HEAD';
  if (!safe && status !== 307 && status !== 308)
    throw new OutboundError(
      'refused-redirect',
      `"${hop.url.host}" answered ${status} to a ${hop.method}; only 307 and 308 redirects of a ${hop.method} are followed`,
    );
  if (!safe && hop.body !== undefined && !(hop.body instanceof Uint8Array))
    throw new OutboundError(
      'refused-redirect',
      `"${hop.url.host}" redirected a ${hop.method} whose body was streamed and cannot be sent again`,
    );
  const hasCredentials = CREDENTIAL_HEADERS.some((name) => name in hop.headers);
  if (next.origin === hop.url.origin || !hasCredentials) return { ...hop, url: next };
  if (!safe)
    throw new OutboundError(
      'refused-redirect',
      `"${hop.url.host}" redirected a ${hop.method} with credentials to another origin ("${next.host}")`,
    );
  const headers = Object.fromEntries(
    Object.entries(hop.headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)),
  );
  return { ...hop, url: next, headers };
}
