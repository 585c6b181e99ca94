import { describe, expect, it } from 'vitest';
import { checkAddress, parseAllowList, refusedRange } from '../../sync-server/outbound/address-policy';
import { OutboundError, parseOutboundUrl, pinAddress } from '../../sync-server/outbound/fetch';
import { EMPTY_ALLOW_LIST } from '../../sync-server/outbound';
import { ConfigError, loadConfig } from '../../sync-server/config';

/**
 * The outbound address classifier on every refused range, without
 * connecting anywhere: what the server may fetch on a user's behalf.
 */
describe('refusedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001::1', 'teredo'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });

  it('treats non-canonical IPv4 forms as invalid (only the URL parser may normalize them)', () => {
    for (const address of ['2130706433', '0x7f.1', '127.1', '017700000001'])
      expect(refusedRange(address)).toBe('invalid');
  });
});

describe('FOLIO_OUTBOUND_ALLOW', () => {
  const allow = parseAllowList('127.0.0.1, 10.1.0.0/16, internal.example, [fd00::5]');

  it('allows listed addresses, ranges and host names, and nothing next to them', () => {
    expect(checkAddress(allow, '127.0.0.1')).toBeUndefined();
    expect(checkAddress(allow, '127.0.0.2')).toBe('loopback');
    expect(checkAddress(allow, '10.1.200.3')).toBeUndefined();
    expect(checkAddress(allow, '10.2.0.1')).toBe('private');
    expect(checkAddress(allow, '10.9.9.9', 'internal.example')).toBeUndefined();
    expect(checkAddress(allow, '10.9.9.9', 'other.example')).toBe('private');
    expect(checkAddress(allow, 'fd00::5')).toBeUndefined();
    expect(checkAddress(allow, '::ffff:127.0.0.1')).toBeUndefined();
    expect(checkAddress(EMPTY_ALLOW_LIST, '127.0.0.1')).toBe('loopback');
  });

  it('is read from FOLIO_OUTBOUND_ALLOW or --outbound-allow, and a malformed value stops the start', () => {
    expect(loadConfig([], {}).outboundAllow).toBeUndefined();
    expect(loadConfig([], { FOLIO_OUTBOUND_ALLOW: '127.0.0.1,10.0.0.0/8,docs.internal' }).outboundAllow).toBe(
      '127.0.0.1,10.0.0.0/8,docs.internal',
    );
    expect(loadConfig(['--outbound-allow', '::1'], {}).outboundAllow).toBe('::1');
    expect(() => loadConfig([], { FOLIO_OUTBOUND_ALLOW: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig([], { FOLIO_OUTBOUND_ALLOW: 'bad host!' })).toThrow(/FOLIO_OUTBOUND_ALLOW/);
  });

  it('refuses a malformed entry', () => {
    expect(() => parseAllowList('10.0.0.0/99')).toThrow();
    expect(() => parseAllowList('bad host!')).toThrow(/not a host name/);
  });
});

describe('URL checks (no connection is made)', () => {
  const never = async () => {
    throw new Error('DNS must not be asked for an IP literal');
  };
  const refused = async (url: string) => {
    const err = await pinAddress(parseOutboundUrl(url), EMPTY_ALLOW_LIST, never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  };

  it('refuses decimal-encoded, hex and short-form loopback and metadata addresses', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://0177.0.0.1/',
      'http://[::ffff:7f00:1]/',
      'http://[::1]:8080/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
    ])
      expect((await refused(url)).code, url).toBe('refused-address');
  });

  it('refuses other schemes and credentials', () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/x',
      'gopher://x/',
      'http://user:pw@example.com/',
      'nonsense',
    ])
      expect(() => parseOutboundUrl(url), url).toThrow(OutboundError);
  });

  it('checks every resolved address, not only the first', async () => {
    const url = parseOutboundUrl('http://mixed.example/');
    const err = await pinAddress(url, EMPTY_ALLOW_LIST, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]).catch((e: unknown) => e);
    expect((err as OutboundError).code).toBe('refused-address');
    const ok = await pinAddress(url, EMPTY_ALLOW_LIST, async () => [{ address: '93.184.216.34', family: 4 }]);
    expect(ok).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('reports a name that does not resolve', async () => {
    const err = await pinAddress(parseOutboundUrl('http://nowhere.invalid/'), EMPTY_ALLOW_LIST, async () => {
      throw new Error('ENOTFOUND');
    }).catch((e: unknown) => e);
    expect((err as OutboundError).code).toBe('dns-failed');
  });
});
