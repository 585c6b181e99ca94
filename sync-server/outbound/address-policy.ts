import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may connect to when it fetches a URL for a
 * user. Only globally routable unicast addresses: loopback, private
 * (RFC 1918, unique-local), link-local (cloud metadata at 169.254.169.254),
 * CGNAT, multicast, broadcast, unspecified, documentation/benchmark/reserved
 * ranges and every IPv6 form that embeds an IPv4 address (mapped, NAT64,
 * 6to4, Teredo) are refused, unless FOLIO_OUTBOUND_ALLOW names them.
 */

/** An admin's exceptions: host names (exact, case-insensitive), addresses and CIDR ranges. */
export interface AllowList {
  hosts: ReadonlySet<string>;
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), ranges: [] };

/** Parses FOLIO_OUTBOUND_ALLOW (comma-separated hosts, IPs or CIDRs); throws on a malformed CIDR. */
export function parseAllowList(value: string | undefined): AllowList {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const raw of (value ?? '').split(',')) {
    const item = raw.trim().replace(/^\[(.*)\]$/, '$1');
    if (!item) continue;
    if (item.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(item); // throws on a malformed range
      ranges.push([addr, bits]);
    } else if (ipaddr.isValid(item)) {
      const addr = ipaddr.process(item);
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9.-]+$/i.test(item)) {
      hosts.add(item.toLowerCase().replace(/\.$/, ''));
    } else throw new Error(`"${item}" is not a host name, an IP address or a CIDR range`);
  }
  return { hosts, ranges };
}

/** Parses an address the strict way (dotted quad or IPv6), normalizing IPv4-mapped IPv6 to IPv4. */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/** Why an address is refused ('unicast' addresses are not), e.g. 'loopback', 'private', 'linkLocal'. */
export function refusedRange(address: string): string | undefined {
  const addr = parseAddress(address);
  if (!addr) return 'invalid';
  const range = addr.range();
  return range === 'unicast' ? undefined : range;
}

/** Whether the allow-list covers `address` (or `host`, the name it was resolved from). */
export function isAllowed(allow: AllowList, address: string, host?: string): boolean {
  if (host && allow.hosts.has(host.toLowerCase().replace(/\.$/, ''))) return true;
  const addr = parseAddress(address);
  if (!addr) return false;
  return allow.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** Undefined when the server may connect to `address` for `host`; otherwise the refused range. */
export function checkAddress(allow: AllowList, address: string, host?: string): string | undefined {
  const refused = refusedRange(address);
  if (refused === undefined) return undefined;
  return isAllowed(allow, address, host) ? undefined : refused;
}
