import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../sync-server/config';
import { addressKey, RateLimits } from '../../sync-server/http/rate-limiter';

/**
 * The rate-limit settings and the failed-authentication claims of
 * RateLimits, in-process (the HTTP and cluster behaviour: test/api and
 * test/cluster rate-limits.test.ts).
 */

const silent = { warn: () => undefined };
const limitsWith = (env: Record<string, string>) => RateLimits.open(loadConfig([], env), silent);

describe('rate-limit settings', () => {
  it('has defaults that throttle guessing and writes, not reads', () => {
    expect(loadConfig([], {})).toMatchObject({
      trustProxy: undefined,
      rateLimitWindowS: 60,
      rateLimitAuthFailures: 20,
      rateLimitWrites: 1200,
      rateLimitReads: 0,
      rateLimitAnonymous: 1200,
      rateLimitSignIn: 300,
      rateLimitPendingSignIns: 100,
    });
  });

  it('reads 0 and off as no limit, and refuses bad values', () => {
    const c = loadConfig(['--rate-limit-writes', 'off'], { FOLIO_RATE_LIMIT_AUTH_FAILURES: '0' });
    expect(c.rateLimitWrites).toBe(0);
    expect(c.rateLimitAuthFailures).toBe(0);
    expect(() => loadConfig([], { FOLIO_RATE_LIMIT_WRITES: 'lots' })).toThrow(/FOLIO_RATE_LIMIT_WRITES/);
    expect(() => loadConfig([], { FOLIO_RATE_LIMIT_WINDOW_S: '0' })).toThrow(ConfigError);
    expect(() => loadConfig([], { FOLIO_TRUST_PROXY: 'not-an-address' })).toThrow(/FOLIO_TRUST_PROXY/);
    expect(loadConfig([], { FOLIO_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    const signIn = loadConfig(['--rate-limit-sign-in', 'off'], { FOLIO_RATE_LIMIT_PENDING_SIGN_INS: '0' });
    expect(signIn).toMatchObject({ rateLimitSignIn: 0, rateLimitPendingSignIns: 0 });
    expect(() => loadConfig([], { FOLIO_RATE_LIMIT_SIGN_IN: '-1' })).toThrow(/FOLIO_RATE_LIMIT_SIGN_IN/);
    expect(() => loadConfig([], { FOLIO_RATE_LIMIT_PENDING_SIGN_INS: '1.5' })).toThrow(
      /FOLIO_RATE_LIMIT_PENDING_SIGN_INS/,
    );
  });
});

describe('sign-in requests per address', () => {
  it('counts each address (IPv6 per /64) in its own budget, apart from the anonymous one', async () => {
    const limits = limitsWith({ FOLIO_RATE_LIMIT_SIGN_IN: '2', FOLIO_RATE_LIMIT_PENDING_SIGN_INS: '7' });
    expect(limits.limitsSignIn).toBe(true);
    expect(limits.pendingSignInCap).toBe(7);
    expect(await limits.forSignIn('2001:db8:5:6::1')).toBe(0);
    expect(await limits.forSignIn('2001:db8:5:6::2')).toBe(0);
    const wait = await limits.forSignIn('2001:db8:5:6:ffff::3');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limits.forSignIn('2001:db8:5:7::1')).toBe(0);
    expect(await limits.forAnonymous('2001:db8:5:6::1')).toBe(0);
    await limits.close();
  });

  it('turns off with 0', async () => {
    const limits = limitsWith({ FOLIO_RATE_LIMIT_SIGN_IN: '0' });
    expect(limits.limitsSignIn).toBe(false);
    for (let i = 0; i < 5; i++) expect(await limits.forSignIn('10.0.0.9')).toBe(0);
    await limits.close();
  });
});

describe('failed-authentication claims', () => {
  it("lets a client's parallel first requests with one token share one claim", async () => {
    const limits = limitsWith({ FOLIO_RATE_LIMIT_AUTH_FAILURES: '2' });
    // Ten requests with one token before any of them is answered: one claim, none refused.
    const attempts = await Promise.all(Array.from({ length: 10 }, () => limits.attempt('10.0.0.1', 'folio_same')));
    expect(attempts.map((a) => a.wait)).toEqual(attempts.map(() => 0));
    for (const a of attempts) a.settle('failed');
    // So the address has spent one credit: one more distinct guess, then 429.
    expect((await limits.attempt('10.0.0.1', 'folio_other')).wait).toBe(0);
    expect((await limits.attempt('10.0.0.1', 'folio_third')).wait).toBeGreaterThan(0);
    await limits.close();
  });

  it('refuses distinct tokens beyond the limit while their checks are pending', async () => {
    const limits = limitsWith({ FOLIO_RATE_LIMIT_AUTH_FAILURES: '2' });
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) => limits.attempt('10.0.0.2', `folio_guess_${i}`)),
    );
    const granted = attempts.flatMap((a, i) => (a.wait === 0 ? [i] : []));
    expect(granted).toHaveLength(2);
    // Valid tokens give their claims back and are known from then on: never refused at that address.
    for (const a of attempts) a.settle('accepted');
    for (const i of granted) expect((await limits.attempt('10.0.0.2', `folio_guess_${i}`)).wait).toBe(0);
    // Refused attempts count too: the address stays throttled for tokens it has not proven.
    expect((await limits.attempt('10.0.0.2', 'folio_new')).wait).toBeGreaterThan(0);
    await limits.close();
  });
});

describe('addressKey', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 per /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe(addressKey('2001:db8:1:2::9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });
});
