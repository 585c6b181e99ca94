import { createHash, createHmac } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { createIntegrationSandbox, type SandboxHost, type SandboxRequest } from '../../sync-server/integration-sandbox';

/**
 * The Web APIs the prelude gives scripts behave as Node's (the reference implementation here):
 * each test runs a handler that answers JSON, and compares it with what Node computes.
 */
const sandbox = createIntegrationSandbox();
afterAll(() => sandbox.close());

const host: SandboxHost = {
  fetch: async (r) => ({
    status: 201,
    statusText: 'Created',
    headers: [
      ['content-type', 'application/json'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ],
    body: new TextEncoder().encode(
      JSON.stringify({ method: r.method, url: r.url, headers: r.headers, body: new TextDecoder().decode(r.body) }),
    ),
  }),
};

async function evaluate(body: string, request?: Partial<SandboxRequest>): Promise<unknown> {
  const script = `export default { async fetch(request) { ${body} } }`;
  const outcome = await sandbox.run(
    script,
    { method: 'POST', url: 'https://integrations.folio.test/v1', headers: [], body: new Uint8Array(), ...request },
    host,
  );
  if (!outcome.ok) throw new Error(`${outcome.failure}: ${outcome.message}\n${JSON.stringify(outcome.logs)}`);
  return JSON.parse(new TextDecoder().decode(outcome.response.body));
}

it('parses and edits URLs as the WHATWG URL standard does', async () => {
  const inputs: [string, string?][] = [
    ['https://user:pw@Example.COM:8080/a/../b/./c?x=1&y=2#frag'],
    ['../up?q=a b', 'https://e.com/one/two/three'],
    ['http://[::1]:80/'],
    ['https://münchen.de/ä?ö=ü'],
    ['mailto:someone@example.com'],
  ];
  const got = await evaluate(`
    const inputs = ${JSON.stringify(inputs)};
    const parts = (u) => ({ href: u.href, origin: u.origin, protocol: u.protocol, username: u.username, password: u.password, host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash });
    const parsed = inputs.map(([i, b]) => parts(new URL(i, b)));
    const u = new URL('https://e.com/p?a=1');
    u.searchParams.append('b', 'x y');
    u.pathname = '/new path';
    u.hash = 'h';
    u.port = '8443';
    let invalid;
    try { new URL('not a url') } catch (e) { invalid = e.name }
    return Response.json({ parsed, edited: u.href, invalid, canParse: [URL.canParse('x:'), URL.canParse('nope')] });
  `);
  const parts = (u: URL) => ({
    href: u.href,
    origin: u.origin,
    protocol: u.protocol,
    username: u.username,
    password: u.password,
    host: u.host,
    hostname: u.hostname,
    port: u.port,
    pathname: u.pathname,
    search: u.search,
    hash: u.hash,
  });
  const u = new URL('https://e.com/p?a=1');
  u.searchParams.append('b', 'x y');
  u.pathname = '/new path';
  u.hash = 'h';
  u.port = '8443';
  expect(got).toEqual({
    parsed: inputs.map(([i, b]) => parts(new URL(i, b))),
    edited: u.href,
    invalid: 'TypeError',
    canParse: [true, false],
  });
});

it('URLSearchParams parses, edits and serializes as Node does', async () => {
  const query = '?a=1&b=x+y&a=2&c=%E2%9C%93&d&e=%zz&f=a%26b';
  const got = await evaluate(`
    const p = new URLSearchParams(${JSON.stringify(query)});
    const before = [...p];
    p.append('g', "it's ~ (ok)!*");
    p.set('a', '3');
    p.delete('b');
    p.sort();
    return Response.json({ before, after: p.toString(), getAll: p.getAll('a'), has: p.has('d'), size: p.size,
      fromObject: new URLSearchParams({ x: '1', y: 'é' }).toString(), fromPairs: new URLSearchParams([['k', 'v']]).get('k') });
  `);
  const p = new URLSearchParams(query);
  const before = [...p];
  p.append('g', "it's ~ (ok)!*");
  p.set('a', '3');
  p.delete('b');
  p.sort();
  expect(got).toEqual({
    before,
    after: p.toString(),
    getAll: p.getAll('a'),
    has: true,
    size: p.size,
    fromObject: new URLSearchParams({ x: '1', y: 'é' }).toString(),
    fromPairs: 'v',
  });
});

it('TextEncoder/TextDecoder round-trip UTF-8; atob/btoa match Node', async () => {
  const text = 'héllo ✓ 𝄞 \u0000 end';
  const got = (await evaluate(`
    const text = ${JSON.stringify(text)};
    const bytes = new TextEncoder().encode(text);
    let fatal;
    try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])) } catch (e) { fatal = e.name }
    let bad;
    try { atob('*') } catch (e) { bad = e.name }
    return Response.json({ bytes: [...bytes], back: new TextDecoder().decode(bytes), lossy: new TextDecoder().decode(new Uint8Array([0x61, 0xff])),
      fatal, b64: btoa('binary\\u00ff'), unb64: atob('aGVsbG8='), bad });
  `)) as Record<string, unknown>;
  expect(got).toEqual({
    bytes: [...Buffer.from(text, 'utf8')],
    back: text,
    lossy: 'a\ufffd',
    fatal: 'TypeError',
    b64: btoa('binary\u00ff'),
    unb64: 'hello',
    bad: 'InvalidCharacterError',
  });
});

it('crypto: digests and HMAC match node:crypto, random values and UUIDs are well-formed', async () => {
  const got = (await evaluate(`
    const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
    const data = new TextEncoder().encode('The quick brown fox');
    const digests = {};
    for (const alg of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) digests[alg] = hex(await crypto.subtle.digest(alg, data));
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const sig = await crypto.subtle.sign('HMAC', key, data);
    const ok = await crypto.subtle.verify('HMAC', key, sig, data);
    const forged = await crypto.subtle.verify('HMAC', key, new Uint8Array(32), data);
    const random = crypto.getRandomValues(new Uint8Array(16));
    return Response.json({ digests, hmac: hex(sig), ok, forged, randomLength: random.length, distinct: new Set(random).size > 1, uuid: crypto.randomUUID() });
  `)) as Record<string, unknown>;
  const data = 'The quick brown fox';
  expect(got).toMatchObject({
    digests: Object.fromEntries(
      ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'].map((a) => [
        a,
        createHash(a.replace('-', '').toLowerCase()).update(data).digest('hex'),
      ]),
    ),
    hmac: createHmac('sha256', 'secret').update(data).digest('hex'),
    ok: true,
    forged: false,
    randomLength: 16,
    distinct: true,
  });
  expect(got.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

it('request.formData() parses a multipart body with a file part', async () => {
  const form = new FormData();
  form.append('title', 'Héllo');
  form.append('upload', new Blob([new Uint8Array([0, 1, 2, 255])], { type: 'application/octet-stream' }), 'data.bin');
  const encoded = new Request('https://x.test/', { method: 'POST', body: form });
  const got = await evaluate(
    `
    const form = await request.formData();
    const file = form.get('upload');
    return Response.json({ title: form.get('title'), name: file.name, type: file.type, size: file.size,
      bytes: [...new Uint8Array(await file.arrayBuffer())], isFile: file instanceof File, keys: [...form.keys()] });
  `,
    {
      headers: [['content-type', encoded.headers.get('content-type')!]],
      body: new Uint8Array(await encoded.arrayBuffer()),
    },
  );
  expect(got).toEqual({
    title: 'Héllo',
    name: 'data.bin',
    type: 'application/octet-stream',
    size: 4,
    bytes: [0, 1, 2, 255],
    isFile: true,
    keys: ['title', 'upload'],
  });
});

it('Response.json, clone, redirect and a FormData body the host can parse', async () => {
  const got = (await evaluate(`
    const r = Response.json({ a: [1, 'two'] }, { status: 202, headers: { 'x-extra': '1' } });
    const copy = r.clone();
    const json = await r.json();
    let reused;
    try { await r.text() } catch (e) { reused = e.name }
    const redirect = Response.redirect('https://e.com/next', 307);
    const form = new FormData();
    form.append('field', 'value');
    form.append('file', new File(['file text'], 'notes.txt', { type: 'text/plain' }));
    const sent = await fetch('https://api.test/upload', { method: 'PUT', body: form, headers: { authorization: 'Bearer t' } });
    return Response.json({ json, status: r.status, type: r.headers.get('content-type'), extra: r.headers.get('x-extra'),
      copyText: await copy.text(), reused, redirect: [redirect.status, redirect.headers.get('location')],
      sent: await sent.json(), sentStatus: [sent.status, sent.statusText, sent.ok], cookies: sent.headers.getSetCookie(),
      clone: structuredClone({ d: new Date(0), m: new Map([[1, { x: [1] }]]) }).m.get(1).x });
  `)) as Record<string, unknown> & { sent: { headers: [string, string][]; body: string; method: string; url: string } };
  expect(got).toMatchObject({
    json: { a: [1, 'two'] },
    status: 202,
    type: 'application/json',
    extra: '1',
    copyText: '{"a":[1,"two"]}',
    reused: 'TypeError',
    redirect: [307, 'https://e.com/next'],
    sentStatus: [201, 'Created', true],
    cookies: ['a=1', 'b=2'],
    clone: [1],
  });
  expect(got.sent.method).toBe('PUT');
  expect(got.sent.url).toBe('https://api.test/upload');
  expect(got.sent.headers).toContainEqual(['authorization', 'Bearer t']);
  // What the script sent is a multipart body Node's own parser reads back.
  const contentType = got.sent.headers.find(([n]) => n === 'content-type')![1];
  const parsed = await new Response(got.sent.body, { headers: { 'content-type': contentType } }).formData();
  expect(parsed.get('field')).toBe('value');
  const file = parsed.get('file') as File;
  expect([file.name, file.type, await file.text()]).toEqual(['notes.txt', 'text/plain', 'file text']);
});

it('timers, AbortController, queueMicrotask and console capture', async () => {
  const outcome = await sandbox.run(
    `export default { async fetch() {
      const order = [];
      queueMicrotask(() => order.push('micro'));
      const interval = setInterval(() => { order.push('tick'); if (order.filter((o) => o === 'tick').length === 3) clearInterval(interval) }, 5);
      const cancelled = setTimeout(() => order.push('never'), 1);
      clearTimeout(cancelled);
      await new Promise((r) => setTimeout(r, 40));
      const controller = new AbortController();
      const pending = fetch('https://api.test/slow', { signal: controller.signal }).catch((e) => e.name);
      controller.abort();
      console.log('object', { a: 1 }, [2]);
      console.warn('x'.repeat(10000));
      for (let i = 0; i < 300; i++) console.debug(i);
      return Response.json({ order, abort: await pending, timeout: AbortSignal.timeout(1) instanceof AbortSignal });
    } }`,
    { method: 'GET', url: 'https://integrations.folio.test/v1', headers: [], body: new Uint8Array() },
    host,
  );
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return;
  expect(JSON.parse(new TextDecoder().decode(outcome.response.body))).toEqual({
    order: ['micro', 'tick', 'tick', 'tick'],
    abort: 'AbortError',
    timeout: true,
  });
  expect(outcome.logs[0]).toMatchObject({ level: 'log', message: 'object {"a":1} [2]' });
  expect(outcome.logs[1]!.level).toBe('warn');
  expect(outcome.logs[1]!.message.length).toBeLessThan(4200);
  expect(outcome.logs).toHaveLength(201);
  expect(outcome.logs.at(-1)!.message).toBe('102 more log entries were dropped');
});
