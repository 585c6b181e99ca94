import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFailure as importFailure } from '../../sync-server/api/content-import/read-source';
import { toTransportError } from '../../sync-server/git-sync/transport/errors';
import { fetchFailure as specFailure } from '../../sync-server/openapi-specs/process';
import { ERROR_BODY_BYTES, fetchOutbound, OutboundError, parseAllowList } from '../../sync-server/outbound';

/**
 * A non-2xx answer's headers and the first bytes of its body on the OutboundError ('http-status'),
 * for a caller that reads an API's own error text or its Retry-After: bounded, never in the
 * message, left out when the error is logged or serialized, and quoted by none of the other users
 * of the fetcher (OpenAPI specs, content import, Git sync). A real server on 127.0.0.1.
 */

/** What the server writes into its error bodies: it must reach no message. */
const SECRET = 'echoed-token-5f2c9a';

const allow = parseAllowList('127.0.0.1');
let server: http.Server;
let base: string;
let host: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/limited') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '12' });
      return void res.end(JSON.stringify({ error: `slow down, ${SECRET}` }));
    }
    if (path === '/huge') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end(`${SECRET} `.repeat(50_000));
    }
    if (path === '/stalls') {
      // The status, a first chunk, and then nothing: the failure is still the 503 it sent.
      res.writeHead(503, { 'content-type': 'text/plain' });
      return void res.write(`overloaded ${SECRET}`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`no such thing ${SECRET}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `http://${host}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function refusal(path: string, method = 'GET'): Promise<OutboundError> {
  const err = await fetchOutbound(`${base}${path}`, { allow, method }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe("an 'http-status' failure", () => {
  it('carries the headers and the body, and a message of its own without them', async () => {
    const err = await refusal('/limited');
    expect(err).toMatchObject({ code: 'http-status', status: 429, message: `"${host}" answered 429` });
    expect(err.headers?.['retry-after']).toBe('12');
    expect(err.headers?.['content-type']).toBe('application/json');
    expect(JSON.parse(err.body!.toString('utf8'))).toEqual({ error: `slow down, ${SECRET}` });
  });

  it('keeps only the first bytes of a large body', async () => {
    const err = await refusal('/huge');
    expect(err.status).toBe(500);
    expect(err.body!.length).toBe(ERROR_BODY_BYTES);
    expect(err.body!.toString('utf8').startsWith(`${SECRET} ${SECRET}`)).toBe(true);
  });

  it('is the status the server sent when its body stalls', async () => {
    const err = await refusal('/stalls');
    expect(err).toMatchObject({ code: 'http-status', status: 503 });
    expect(err.body!.toString('utf8')).toBe(`overloaded ${SECRET}`);
  });

  it('has an empty body for a HEAD', async () => {
    const err = await refusal('/missing', 'HEAD');
    expect(err).toMatchObject({ code: 'http-status', status: 404 });
    expect(err.body!.length).toBe(0);
  });

  it('leaves the body and headers out of logs and serializations', async () => {
    const err = await refusal('/limited');
    expect(Object.keys(err)).not.toContain('body');
    expect(Object.keys(err)).not.toContain('headers');
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(inspect(err)).not.toContain(SECRET);
    // How the server logs an error: pino's `err` serializer.
    expect(JSON.stringify(pino.stdSerializers.err(err))).not.toContain(SECRET);
    expect(JSON.stringify(pino.stdSerializers.err(err))).toContain('answered 429');
  });

  it('reaches no message of the other users of the fetcher, which behave as before', async () => {
    const limited = await refusal('/limited');
    const missing = await refusal('/missing');
    const spec = specFailure(limited, `${base}/limited`);
    expect(spec).toMatchObject({ code: 'FETCH_ERROR', retryable: true });
    expect(specFailure(missing, `${base}/missing`).retryable).toBe(false);
    const imported = importFailure(missing, `${base}/missing`);
    expect(imported.code).toBe('FETCH_ERROR');
    const git = toTransportError(missing, { url: base, hadCredentials: false, maxBytes: 1 << 20, secrets: [] });
    expect(git.code).toBe('not-found');
    for (const message of [spec.message, imported.message, git.message]) expect(message).not.toContain(SECRET);
  });
});
