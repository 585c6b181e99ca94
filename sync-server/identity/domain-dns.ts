import { Resolver } from 'node:dns/promises';

/** Where the proof of a domain claim lives: a TXT record on this name under the domain. */
export const VERIFICATION_LABEL = '_folio-verification';
/** What the TXT record holds before the claim's token. */
export const VERIFICATION_PREFIX = 'folio-verification=';

/** The TXT record an organization publishes to prove it controls `domain`. */
export function verificationRecord(domain: string, token: string): { type: 'TXT'; name: string; value: string } {
  return { type: 'TXT', name: `${VERIFICATION_LABEL}.${domain}`, value: `${VERIFICATION_PREFIX}${token}` };
}

/** What a DNS look-up found: the proof, no proof (with what was there), or no answer from DNS. */
export type DnsProof = { found: true } | { found: false; seen: string[] } | { found: false; error: string };

/**
 * Looks for the claim's TXT record through `servers` (host or host:port; the
 * system's resolvers when empty). A record split into several strings counts
 * joined, as DNS allows long values to be. Two tries of 2 s at most, so a
 * dead resolver answers the person in seconds, not the default minute.
 */
export async function findVerificationRecord(servers: string[], domain: string, token: string): Promise<DnsProof> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  const { name, value } = verificationRecord(domain, token);
  try {
    const records = (await resolver.resolveTxt(name)).map((parts) => parts.join(''));
    return records.includes(value) ? { found: true } : { found: false, seen: records.slice(0, 5) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No such name or no TXT there: the record is simply not published (yet).
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { found: false, seen: [] };
    return { found: false, error: code ?? 'DNS lookup failed' };
  }
}
