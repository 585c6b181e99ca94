import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOutbound, OutboundError, parseAllowList, type Resolver } from '../../sync-server/outbound';

/**
 * The outbound fetcher against real HTTP servers on this machine only
 * (127.0.0.1, 127.0.0.2, [::1]), so that even a broken check never sends
 * traffic elsewhere. 127.0.0.1 is what tests allow with FOLIO_OUTBOUND_ALLOW;
 * 127.0.0.2 and ::1 stand for internal addresses that are not allowed.
 */
interface Listener {
  server: http.Server;
  port: number;
  hits: string[];
}

async function listen(host: string, handler: http.RequestListener): Promise<Listener | undefined> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
  } catch {
    return undefined; // e.g. no IPv6 loopback in this container
  }
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let allowed: Listener;
let internal: Listener;
let ipv6: Listener | undefined;
const allow = parseAllowList('127.0.0.1');

const refusal = async (url: string, options: Parameters<typeof fetchOutbound>[1] = {}) => {
  const err = await fetchOutbound(url, { allow, ...options }).catch((e: unknown) => e);
  expect(err, url).toBeInstanceOf(OutboundError);
  return err as OutboundError;
};

beforeAll(async () => {
  allowed = (await listen('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
    } else if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (url.pathname === '/hang') {
      // never answers: the total timeout must end the fetch
    } else if (url.pathname === '/missing') {
      res.writeHead(404).end('no');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello from 127.0.0.1');
    }
  }))!;
  internal = (await listen('127.0.0.2', (_req, res) => res.end('internal secret')))!;
  ipv6 = await listen('::1', (_req, res) => res.end('ipv6 secret'));
});
afterAll(async () => {
  for (const l of [allowed, internal, ipv6])
    if (l) {
      l.server.closeAllConnections();
      await new Promise((r) => l.server.close(r));
    }
});

describe('fetchOutbound', () => {
  it('refuses loopback by default and fetches it when FOLIO_OUTBOUND_ALLOW lists it', async () => {
    const url = `http://127.0.0.1:${allowed.port}/file.txt`;
    expect((await refusal(url, { allow: parseAllowList('') })).code).toBe('refused-address');
    expect(allowed.hits).toEqual([]);
    const res = await fetchOutbound(url, { allow });
    expect(res.body.toString()).toBe('hello from 127.0.0.1');
    expect(res.contentType).toBe('text/plain; charset=utf-8');
    expect(allowed.hits).toEqual(['/file.txt']);
  });

  it('refuses an internal address the allow-list does not name (127.0.0.2, [::1])', async () => {
    expect((await refusal(`http://127.0.0.2:${internal.port}/`)).code).toBe('refused-address');
    if (ipv6) expect((await refusal(`http://[::1]:${ipv6.port}/`)).code).toBe('refused-address');
    expect(internal.hits).toEqual([]);
    expect(ipv6?.hits ?? []).toEqual([]);
  });

  it('refuses a host name that resolves to an internal address', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.2', family: 4 }];
    const err = await refusal(`http://intranet.example:${internal.port}/`, { resolver });
    expect(err.code).toBe('refused-address');
    expect(err.message).toMatch(/127\.0\.0\.2.*loopback/);
    expect(internal.hits).toEqual([]);
  });

  it('re-checks every redirect hop: a redirect to an internal address or name is refused', async () => {
    const resolver: Resolver = async (host) =>
      host === 'intranet.example' ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const direct = `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${internal.port}/`)}`;
    expect((await refusal(direct)).code).toBe('refused-address');
    const byName = `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(`http://intranet.example:${internal.port}/`)}`;
    expect((await refusal(byName, { resolver })).code).toBe('refused-address');
    const metadata = `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`;
    expect((await refusal(metadata)).code).toBe('refused-address');
    expect(internal.hits).toEqual([]);
    // An allowed redirect is followed.
    const fine = `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent('/ok')}`;
    expect((await fetchOutbound(fine, { allow })).body.toString()).toBe('hello from 127.0.0.1');
  });

  it('pins the connection to the checked address (DNS rebinding)', async () => {
    // First answer: the allowed address; every later answer: the internal one. A fetcher that
    // resolved again at connect time would reach 127.0.0.2.
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls++;
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const res = await fetchOutbound(`http://rebind.example:${allowed.port}/pinned`, {
      allow: parseAllowList('127.0.0.1'),
      resolver: rebinding,
    });
    expect(res.body.toString()).toBe('hello from 127.0.0.1');
    expect(calls).toBe(1);
    expect(allowed.hits).toContain('/pinned');
    expect(internal.hits).toEqual([]);
  });

  it('stops after 5 redirects', async () => {
    const before = allowed.hits.length;
    expect((await refusal(`http://127.0.0.1:${allowed.port}/loop`)).code).toBe('too-many-redirects');
    expect(allowed.hits.length - before).toBe(6);
  });

  it('limits the body size, answers non-2xx and times out', async () => {
    expect((await refusal(`http://127.0.0.1:${allowed.port}/big`, { maxBytes: 1000 })).code).toBe('too-large');
    expect((await refusal(`http://127.0.0.1:${allowed.port}/file`, { maxBytes: 5 })).code).toBe('too-large');
    expect((await refusal(`http://127.0.0.1:${allowed.port}/missing`)).code).toBe('http-status');
    expect((await refusal(`http://127.0.0.1:${allowed.port}/hang`, { totalTimeoutMs: 200 })).code).toBe('timeout');
  });
});
