import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Response bodies made once and sent many times, with their compressed forms
 * made once beside them (never per request), and conditional requests.
 *
 * - Compression runs on libuv's thread pool (zlib's async functions), not on
 *   the event loop, and only when a body is made: a cached page is compressed
 *   once per rendering, then every request sends the stored bytes.
 * - Brotli at quality 5 for what is made while a reader waits (a rendered
 *   page: a few ms per 100 kB, within ~2 % of quality 9's size), 9 for what
 *   is made once per process (the site script, the OpenAPI document, the web
 *   app's files; quality 11 took ~10x longer for ~7 % fewer bytes on the
 *   app's largest script).
 *   Gzip at level 6 for clients without brotli.
 * - ETags are strong and distinct per encoding (`"<tag>"`, `"<tag>-br"`,
 *   `"<tag>-gz"`): each encoding is a different representation (RFC 9110
 *   8.8.3), and a shared weak tag would tell a cache holding the gzip bytes
 *   that they are the brotli ones. A browser sends the same Accept-Encoding
 *   every time, so it gets the same encoding back and its revalidation is a 304.
 * - Why compressing these bodies is safe from BREACH-style attacks: none of
 *   them holds a secret together with text the requester chose (site pages
 *   are cached per URL without its query; share keys and visitor tokens stay
 *   in cookies and URLs, never in a body).
 */

/** Bodies shorter than this are sent as they are: a few hundred bytes saved cost more than they gain. */
export const COMPRESS_MIN_BYTES = 1024;

/** The content codings Folio sends, in order of preference. */
export type ContentCoding = 'br' | 'gzip';

/** Brotli quality per kind of body (see above). */
const BROTLI_QUALITY = { dynamic: 5, static: 9 } as const;
const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A body with its validator and its compressed forms (absent when not worth it). */
export interface EncodedBody {
  /** The identity bytes. */
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** Quoted strong ETags: of the identity bytes, and of each compressed form. */
  etags: { identity: string; br: string; gzip: string };
}

/** Bytes held by a body and its compressed forms (for caches weighed in bytes). */
export function encodedWeight(body: EncodedBody): number {
  return body.raw.length + (body.br?.length ?? 0) + (body.gzip?.length ?? 0);
}

/** A validator of `raw`: the first 128 bits of its SHA-256, base64url. */
export function contentTag(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('base64url').slice(0, 22);
}

/** The quoted ETags of a tag, per encoding. */
export function etagsOf(tag: string): EncodedBody['etags'] {
  return { identity: `"${tag}"`, br: `"${tag}-br"`, gzip: `"${tag}-gz"` };
}

/** The brotli and gzip forms of `raw`, each kept only when it is smaller. */
export async function compressForms(
  raw: Buffer,
  kind: keyof typeof BROTLI_QUALITY = 'dynamic',
): Promise<Pick<EncodedBody, 'br' | 'gzip'>> {
  if (raw.length < COMPRESS_MIN_BYTES) return {};
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[kind],
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzipAsync(raw, { level: GZIP_LEVEL }),
  ]);
  return { ...(br.length < raw.length ? { br } : {}), ...(gz.length < raw.length ? { gzip: gz } : {}) };
}

/**
 * Makes the body of a response sent many times: its compressed forms (off the
 * event loop) and its ETags (`tag`, or a hash of the bytes).
 */
export async function encodeBody(
  body: Buffer | string,
  options: { tag?: string; kind?: keyof typeof BROTLI_QUALITY } = {},
): Promise<EncodedBody> {
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { raw, ...(await compressForms(raw, options.kind)), etags: etagsOf(options.tag ?? contentTag(raw)) };
}

/** The codings a request accepts, best first; one parse per distinct header (clients send a handful). */
const accepted = new Map<string, readonly ContentCoding[]>();
const NONE: readonly ContentCoding[] = [];

/**
 * The codings an `Accept-Encoding` header accepts, best first (RFC 9110
 * 12.5.3): a coding's q-value is its own entry's, else that of `*`, else it
 * is not acceptable; `q=0` refuses. Brotli wins ties (smaller). `x-gzip` is gzip.
 */
export function acceptedCodings(header: string | undefined): readonly ContentCoding[] {
  if (!header) return NONE;
  const hit = accepted.get(header);
  if (hit) return hit;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const [param, value] = p.split('=');
      // An unreadable q-value is no acceptance.
      if (param?.trim().toLowerCase() === 'q') weight = /^\s*[0-9.]+\s*$/.test(value ?? '') ? Number(value) : NaN;
    }
    if (!Number.isFinite(weight)) weight = 0;
    // The highest of repeated entries counts.
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    q.set(key, Math.max(q.get(key) ?? 0, Math.min(weight, 1)));
  }
  const of = (c: ContentCoding) => q.get(c) ?? q.get('*') ?? 0;
  const result = (['br', 'gzip'] as const).filter((c) => of(c) > 0).sort((a, b) => of(b) - of(a));
  // Headers come from clients: a bounded memo, so made-up values cannot grow it for ever.
  if (accepted.size >= 256) accepted.clear();
  accepted.set(header, result);
  return result;
}

/** Whether an If-None-Match header names `quoted` (weak comparison, RFC 9110 13.1.2), or is `*`. */
export function ifNoneMatch(header: string | undefined, quoted: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((m) => m.trim().replace(/^W\//, '') === quoted);
}

/** The coding to send `body` in, for this request (undefined: identity). */
export function chooseCoding(request: FastifyRequest, body: EncodedBody): ContentCoding | undefined {
  if (body.br === undefined && body.gzip === undefined) return undefined;
  for (const c of acceptedCodings(request.headers['accept-encoding'])) if (body[c] !== undefined) return c;
  return undefined;
}

/**
 * Sends an encoded body: the best coding the request accepts, its ETag,
 * `Vary` (`vary`, plus Accept-Encoding when the body has compressed forms),
 * and 304 without a body when the request's If-None-Match names that ETag
 * (only for a 200: an error page is never "not modified"). HEAD gets the
 * same headers (Fastify answers HEAD with the GET handler and drops the body).
 */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: EncodedBody, vary?: string) {
  const compressible = body.br !== undefined || body.gzip !== undefined;
  if (compressible) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  else if (vary) reply.header('vary', vary);
  const coding = compressible ? chooseCoding(request, body) : undefined;
  const etag = coding ? body.etags[coding] : body.etags.identity;
  reply.header('etag', etag);
  if (reply.statusCode === 200 && ifNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (!coding) return reply.send(body.raw);
  return reply.header('content-encoding', coding).send(body[coding]);
}
