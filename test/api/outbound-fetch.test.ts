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

/** What an echo server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('fetchOutbound with a method, headers and a body', () => {
  let echo: Listener;
  let other: Listener;
  const seen: Seen[] = [];
  const otherSeen: Seen[] = [];

  const recorder =
    (log: Seen[], answer: (s: Seen, res: http.ServerResponse) => void): http.RequestListener =>
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
        log.push(s);
        answer(s, res);
      });
    };

  beforeAll(async () => {
    echo = (await listen(
      '127.0.0.1',
      recorder(seen, (s, res) => {
        const url = new URL(s.url, 'http://x');
        const to = url.searchParams.get('to');
        const status = Number(url.searchParams.get('status') ?? 302);
        if (url.pathname === '/redirect' && to) res.writeHead(status, { location: to }).end();
        else if (url.pathname === '/denied') res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
        else
          res
            .writeHead(200, { 'content-type': 'application/x-echo', 'x-seen-method': s.method })
            .end(Buffer.concat([Buffer.from(`${s.method} ${s.body.length}:`), s.body]));
      }),
    ))!;
    // Another origin on the same allowed address (another port): where credentials must not go.
    other = (await listen(
      '127.0.0.1',
      recorder(otherSeen, (s, res) => res.writeHead(200).end(`other ${s.method}`)),
    ))!;
  });
  afterAll(async () => {
    for (const l of [echo, other]) {
      l.server.closeAllConnections();
      await new Promise((r) => l.server.close(r));
    }
  });

  const at = (path: string) => `http://127.0.0.1:${echo.port}${path}`;
  const redirect = (to: string, status: number) => at(`/redirect?status=${status}&to=${encodeURIComponent(to)}`);

  it('POSTs bytes with headers and reads the response headers', async () => {
    const body = Buffer.from('0032want 0123456789012345678901234567890123456789\n0000');
    const res = await fetchOutbound(at('/git-upload-pack'), {
      allow,
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Git-Protocol': 'version=2' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-seen-method']).toBe('POST');
    expect(res.contentType).toBe('application/x-echo');
    expect(res.body.toString()).toBe(`POST ${body.length}:${body.toString()}`);
    const last = seen.at(-1)!;
    expect(last.headers['content-type']).toBe('application/x-git-upload-pack-request');
    expect(last.headers['git-protocol']).toBe('version=2');
    expect(last.headers['content-length']).toBe(String(body.length));
  });

  it('streams an async iterable body (chunked), however large', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    async function* chunks() {
      for (let i = 0; i < 32; i++) yield chunk; // 2 MiB, past any socket buffer: back-pressure is exercised
    }
    const res = await fetchOutbound(at('/git-receive-pack'), { allow, method: 'POST', body: chunks(), maxBytes: 4e6 });
    expect(res.body.subarray(0, 13).toString()).toBe(`POST ${32 * chunk.length}:`);
    expect(seen.at(-1)!.headers['transfer-encoding']).toBe('chunked');
    expect(seen.at(-1)!.body.equals(Buffer.concat(Array(32).fill(chunk)))).toBe(true);
  });

  it('keeps every address check for a POST: a refused address never gets the body', async () => {
    const err = await refusal(`http://127.0.0.2:${internal.port}/`, { method: 'POST', body: Buffer.from('secret') });
    expect(err.code).toBe('refused-address');
    const viaRedirect = await refusal(redirect(`http://127.0.0.2:${internal.port}/`, 307), {
      method: 'POST',
      body: Buffer.from('secret'),
    });
    expect(viaRedirect.code).toBe('refused-address');
    expect(internal.hits).toEqual([]);
  });

  it('follows 307 and 308 of a POST with the method and body, and refuses 301, 302 and 303', async () => {
    for (const status of [307, 308]) {
      const res = await fetchOutbound(redirect('/moved', status), { allow, method: 'POST', body: Buffer.from('pack') });
      expect(res.body.toString()).toBe('POST 4:pack');
      expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/moved' });
    }
    for (const status of [301, 302, 303]) {
      const before = seen.length;
      const err = await refusal(redirect('/moved', status), { method: 'POST', body: Buffer.from('pack') });
      expect(err.code).toBe('refused-redirect');
      expect(err.message).toContain(String(status));
      expect(seen.length - before).toBe(1); // the redirect itself, not its target
    }
  });

  it('refuses to redirect a streamed body (it cannot be sent again)', async () => {
    async function* once() {
      yield Buffer.from('streamed');
    }
    const err = await refusal(redirect('/moved', 307), { method: 'POST', body: once() });
    expect(err.code).toBe('refused-redirect');
  });

  it('never takes credentials to another origin: a GET drops them, a POST is refused', async () => {
    const auth = { authorization: 'Basic dXNlcjpzM2NyZXQ=', cookie: 'session=abc' };
    const elsewhere = `http://127.0.0.1:${other.port}/elsewhere`;
    const res = await fetchOutbound(redirect(elsewhere, 302), { allow, headers: auth });
    expect(res.body.toString()).toBe('other GET');
    expect(otherSeen.at(-1)!.headers.authorization).toBeUndefined();
    expect(otherSeen.at(-1)!.headers.cookie).toBeUndefined();
    const before = otherSeen.length;
    const err = await refusal(redirect(elsewhere, 307), { method: 'POST', headers: auth, body: Buffer.from('x') });
    expect(err.code).toBe('refused-redirect');
    expect(err.message).not.toContain('dXNlcjpzM2NyZXQ=');
    expect(otherSeen.length).toBe(before);
    // The same origin keeps them.
    await fetchOutbound(redirect('/same', 307), { allow, method: 'POST', headers: auth, body: Buffer.from('x') });
    expect(seen.at(-1)).toMatchObject({ url: '/same', headers: { authorization: auth.authorization } });
  });

  it('says the status of a non-2xx answer', async () => {
    const err = await refusal(at('/denied'));
    expect(err).toMatchObject({ code: 'http-status', status: 401 });
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await refusal(`http://127.0.0.1:${allowed.port}/hang`, { signal: controller.signal });
    expect(err.code).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(5_000);
    const already = await refusal(at('/x'), { signal: AbortSignal.abort() });
    expect(already.code).toBe('aborted');
  });
});
