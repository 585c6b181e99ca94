import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { checkAddress, parseAddress, type AllowList } from './address-policy';
import { OutboundError } from './errors';
import type { Resolver } from './types';

/**
 * Where a fetch may connect: the URL's form is checked, its host resolved once, here, and the
 * connection pinned to the checked address, so a second, different DNS answer (DNS rebinding)
 * is never used.
 */

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

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
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}
