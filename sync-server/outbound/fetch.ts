import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { checkAddress, EMPTY_ALLOW_LIST, parseAddress, type AllowList } from './address-policy';

/**
 * The only way the server fetches a URL on a user's behalf (insert_files.url
 * today; later imports, OpenAPI specs, integrations). SSRF defences:
 * - http and https only, no credentials in the URL;
 * - the host is resolved once, here, and EVERY address it resolves to must
 *   be a public unicast address (address-policy.ts) unless FOLIO_OUTBOUND_ALLOW
 *   covers it;
 * - the connection is pinned to the checked address (the socket's `lookup`
 *   returns it), so a second, different DNS answer (DNS rebinding) is never
 *   used; TLS still verifies the certificate against the host name;
 * - redirects are followed by hand (at most `maxRedirects`), each hop checked
 *   the same way;
 * - a connect timeout, a total timeout and a body size limit.
 */

/** How a host name becomes addresses (tests inject one to simulate DNS). */
export type Resolver = (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface OutboundOptions {
  allow?: AllowList;
  resolver?: Resolver;
  maxRedirects?: number;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  /** CA certificates to trust besides the system's (tests with a local https server). */
  ca?: string | Buffer;
}

export const DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  maxBytes: 10 * 1024 * 1024,
} as const;

export type OutboundErrorCode =
  | 'invalid-url'
  | 'refused-address'
  | 'dns-failed'
  | 'connect-timeout'
  | 'timeout'
  | 'too-large'
  | 'too-many-redirects'
  | 'http-status'
  | 'network';

/** A fetch that failed, with a message safe to show the user who asked for it. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundResponse {
  /** The URL the body came from (after redirects). */
  url: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** Parses and checks the URL's form; throws invalid-url. */
export function parseOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid-url', `"${raw.slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('invalid-url', `only http and https URLs can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new OutboundError('invalid-url', 'URLs with credentials are not fetched');
  if (!url.hostname) throw new OutboundError('invalid-url', 'the URL has no host');
  return url;
}

/**
 * The address to connect to for `url`'s host: its literal IP (the WHATWG
 * parser already turned `2130706433` and `127.1` into `127.0.0.1`), or the
 * first resolved address once every resolved address passed the check.
 */
export async function pinAddress(
  url: URL,
  allow: AllowList,
  resolver: Resolver,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = parseAddress(host);
  let candidates: { address: string; family: 4 | 6 }[];
  if (literal) candidates = [{ address: literal.toString(), family: literal.kind() === 'ipv6' ? 6 : 4 }];
  else {
    try {
      candidates = await resolver(host);
    } catch {
      throw new OutboundError('dns-failed', `the host "${host}" could not be resolved`);
    }
    if (candidates.length === 0) throw new OutboundError('dns-failed', `the host "${host}" has no address`);
  }
  for (const c of candidates) {
    const refused = checkAddress(allow, c.address, literal ? undefined : host);
    if (refused)
      throw new OutboundError(
        'refused-address',
        `"${host}" resolves to ${c.address}, a ${refused} address the server does not connect to`,
      );
  }
  const pinned = candidates[0]!;
  const parsed = parseAddress(pinned.address)!;
  return { address: parsed.toString(), family: parsed.kind() === 'ipv6' ? 6 : 4 };
}

/** A `lookup` that answers every query with the pinned address: the socket connects where we checked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/** One request to a pinned address; resolves with the response or a redirect target. */
function requestOnce(
  url: URL,
  pin: { address: string; family: 4 | 6 },
  options: Required<Omit<OutboundOptions, 'ca' | 'allow' | 'resolver'>> & { ca?: string | Buffer },
  deadline: number,
): Promise<OutboundResponse | { redirect: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new OutboundError('timeout', 'the fetch took too long'));
    const req = lib.request(url, {
      method: 'GET',
      lookup: pinnedLookup(pin.address, pin.family),
      family: pin.family,
      agent: false,
      headers: {
        'user-agent': 'Folio (self-hosted documentation server)',
        accept: '*/*',
        'accept-encoding': 'identity',
      },
      ...(options.ca ? { ca: options.ca } : {}),
    });
    let settled = false;
    const fail = (err: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      req.destroy();
      reject(err);
    };
    const total = setTimeout(() => fail(new OutboundError('timeout', 'the fetch took too long')), remaining);
    const connect = setTimeout(
      () => fail(new OutboundError('connect-timeout', `could not connect to "${url.host}" in time`)),
      Math.min(options.connectTimeoutMs, remaining),
    );
    req.on('socket', (socket) => {
      const connected = () => clearTimeout(connect);
      if (!socket.connecting) connected();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
    });
    req.on('error', (err) => fail(new OutboundError('network', `fetching "${url.host}" failed: ${err.message}`)));
    req.on('response', (res) => {
      clearTimeout(connect);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        settled = true;
        clearTimeout(total);
        req.destroy();
        return resolve({ redirect: new URL(res.headers.location, url).toString() });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return fail(new OutboundError('http-status', `"${url.host}" answered ${status}`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes)
        return fail(new OutboundError('too-large', `the file is larger than ${options.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes)
          return fail(new OutboundError('too-large', `the file is larger than ${options.maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('error', (err) => fail(new OutboundError('network', `reading from "${url.host}" failed: ${err.message}`)));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        const type = res.headers['content-type'];
        resolve({ url: url.toString(), status, contentType: type, body: Buffer.concat(chunks) });
      });
    });
    req.end();
  });
}

/** GETs `rawUrl` under the SSRF rules above; throws OutboundError on any refusal or failure. */
export async function fetchOutbound(rawUrl: string, options: OutboundOptions = {}): Promise<OutboundResponse> {
  const allow = options.allow ?? EMPTY_ALLOW_LIST;
  const resolver = options.resolver ?? systemResolver;
  const settings = {
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    ...(options.ca ? { ca: options.ca } : {}),
  };
  const deadline = Date.now() + settings.totalTimeoutMs;
  let url = parseOutboundUrl(rawUrl);
  for (let hop = 0; ; hop++) {
    const pin = await pinAddress(url, allow, resolver);
    const outcome = await requestOnce(url, pin, settings, deadline);
    if (!('redirect' in outcome)) return outcome;
    if (hop >= settings.maxRedirects)
      throw new OutboundError('too-many-redirects', `more than ${settings.maxRedirects} redirects`);
    url = parseOutboundUrl(outcome.redirect);
  }
}
