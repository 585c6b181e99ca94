import http from 'node:http';
import https from 'node:https';
import { ERROR_BODY_BYTES, OutboundError } from './errors';
import { pinnedLookup } from './pin';
import type { OutboundBody, OutboundResponse } from './types';

/** One request of a fetch: the first, or a redirect's next hop. */
export interface Hop {
  url: URL;
  /** Upper-case. */
  method: string;
  /** Lower-case names; only what the caller may set (see fetch.ts). */
  headers: Record<string, string>;
  body: OutboundBody | undefined;
}

export interface HopLimits {
  connectTimeoutMs: number;
  maxBytes: number;
  ca?: string | Buffer;
  signal?: AbortSignal;
}

/** What one hop came back with: the response, or a redirect to follow (or not: fetch.ts decides). */
export type HopOutcome = OutboundResponse | { redirect: string; status: number };

/**
 * How long the body of a non-2xx answer is read (ms), within the fetch's own deadline: a server
 * that sends its status and then stalls still fails as the status it sent, not as a timeout.
 */
const ERROR_BODY_WAIT_MS = 2_000;

const BASE_HEADERS = {
  'user-agent': 'Folio (self-hosted documentation server)',
  accept: '*/*',
};

/** Response headers as one string each (Node gives arrays for repeated ones). */
function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** One request to a pinned address; resolves with the response or a redirect target. */
export function requestOnce(
  hop: Hop,
  pin: { address: string; family: 4 | 6 },
  limits: HopLimits,
  deadline: number,
): Promise<HopOutcome> {
  return new Promise((resolve, reject) => {
    const { url } = hop;
    const lib = url.protocol === 'https:' ? https : http;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new OutboundError('timeout', 'the fetch took too long'));
    const bytes = hop.body instanceof Uint8Array ? hop.body : undefined;
    const req = lib.request(url, {
      method: hop.method,
      lookup: pinnedLookup(pin.address, pin.family),
      family: pin.family,
      agent: false,
      headers: {
        ...BASE_HEADERS,
        ...hop.headers,
        // We hand the body over as it came: a compressed answer would be read as garbage.
        'accept-encoding': 'identity',
        ...(bytes ? { 'content-length': String(bytes.length) } : {}),
      },
      ...(limits.ca ? { ca: limits.ca } : {}),
    });
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      limits.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: OutboundError) => {
      if (settled) return;
      settle();
      req.destroy();
      reject(err);
    };
    const onAbort = () => fail(new OutboundError('aborted', 'the fetch was cancelled'));
    if (limits.signal?.aborted) return onAbort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    const total = setTimeout(() => fail(new OutboundError('timeout', 'the fetch took too long')), remaining);
    const connect = setTimeout(
      () => fail(new OutboundError('connect-timeout', `could not connect to "${url.host}" in time`)),
      Math.min(limits.connectTimeoutMs, remaining),
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
        settle();
        req.destroy();
        return resolve({ redirect: new URL(res.headers.location, url).toString(), status });
      }
      if (status < 200 || status >= 300) {
        // The first bytes of the body hold an API's own error text; the message stays ours. The
        // status is in: from here the failure is that status, whatever the rest of the body does.
        clearTimeout(total);
        const chunks: Buffer[] = [];
        let size = 0;
        const failWithStatus = () => {
          const body = Buffer.concat(chunks, Math.min(size, ERROR_BODY_BYTES));
          const response = { headers: flatHeaders(res.headers), body };
          fail(new OutboundError('http-status', `"${url.host}" answered ${status}`, status, response));
        };
        const wait = setTimeout(failWithStatus, Math.min(ERROR_BODY_WAIT_MS, Math.max(0, deadline - Date.now())));
        // However the request ends (this failure, an abort), the wait ends with it.
        res.once('close', () => clearTimeout(wait));
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= ERROR_BODY_BYTES) failWithStatus();
        });
        res.on('end', failWithStatus);
        res.on('error', failWithStatus);
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes)
        return fail(new OutboundError('too-large', `the file is larger than ${limits.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes)
          return fail(new OutboundError('too-large', `the file is larger than ${limits.maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('error', (err) => fail(new OutboundError('network', `reading from "${url.host}" failed: ${err.message}`)));
      res.on('end', () => {
        if (settled) return;
        settle();
        const headers = flatHeaders(res.headers);
        resolve({
          url: url.toString(),
          status,
          contentType: headers['content-type'],
          headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    const body = hop.body;
    if (body === undefined || body instanceof Uint8Array) req.end(body);
    else void sendStream(req, body, () => settled, fail);
  });
}

/**
 * Writes a streamed body with back-pressure (a large pack is never queued whole in the socket's
 * buffer), and stops as soon as the request is over: the server may answer (401, 413) before it
 * has read everything.
 */
async function sendStream(
  req: http.ClientRequest,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  over: () => boolean,
  fail: (err: OutboundError) => void,
): Promise<void> {
  try {
    for await (const chunk of body) {
      if (over()) return;
      if (!req.write(chunk))
        await new Promise<void>((resolve) => {
          const done = () => {
            req.off('drain', done);
            req.off('close', done);
            resolve();
          };
          req.on('drain', done);
          req.on('close', done);
        });
    }
    if (!over()) req.end();
  } catch (err) {
    fail(new OutboundError('network', `the request body could not be read: ${(err as Error)?.message ?? err}`));
  }
}
