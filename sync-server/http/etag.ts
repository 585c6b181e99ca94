import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptedCodings,
  COMPRESS_MIN_BYTES,
  compressForms,
  ifNoneMatch,
  sendEncoded,
  type EncodedBody,
} from './compression';

/**
 * Sends JSON that is already serialized (from a cache of bytes). Fastify
 * sends a string payload as is, skipping the route's response serializer; the
 * route's response schema still documents the shape.
 */
export function sendSerializedJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * Answers with pre-serialized JSON and an ETag, or 304 Not Modified when the
 * client already holds that version (If-None-Match). Revision content is
 * immutable, so its revision id makes a strong validator.
 */
export function sendJsonWithEtag(request: FastifyRequest, reply: FastifyReply, etag: string, json: string) {
  const quoted = `"${etag}"`;
  reply.header('etag', quoted).header('cache-control', 'private, no-cache');
  if (ifNoneMatch(request.headers['if-none-match'], quoted)) return reply.status(304).send();
  return sendSerializedJson(reply, json);
}

/**
 * A response made once and sent many times: the JSON encoded to bytes and its
 * ETag quoted, so a hot read neither encodes nor measures a string again.
 */
export interface PreparedJson {
  /** The quoted strong validator. */
  etag: string;
  body: Buffer;
  /**
   * The body with its compressed forms (http/compression.ts), made by the first request that accepts
   * one, then kept with the prepared response: compressed once, never per request.
   */
  encoded?: EncodedBody;
  /** The compression under way. */
  encoding?: Promise<EncodedBody>;
}

export function prepareJson(etag: string, json: string): PreparedJson {
  return { etag: `"${etag}"`, body: Buffer.from(json, 'utf8') };
}

/** The prepared response with its compressed forms, made once (a failure is not kept). */
function encodedOf(prepared: PreparedJson): Promise<EncodedBody> {
  const tag = prepared.etag.slice(1, -1);
  return (prepared.encoding ??= compressForms(prepared.body).then(
    (forms) =>
      (prepared.encoded = {
        raw: prepared.body,
        ...forms,
        etags: { identity: prepared.etag, br: `"${tag}-br"`, gzip: `"${tag}-gz"` },
      }),
    (err: unknown) => {
      prepared.encoding = undefined;
      throw err;
    },
  ));
}

/**
 * sendJsonWithEtag for a prepared response, compressed when the request accepts it and the body is
 * worth it (the identity path, what API clients without Accept-Encoding take, stays synchronous).
 */
export function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson) {
  reply.header('cache-control', 'private, no-cache');
  if (prepared.body.length >= COMPRESS_MIN_BYTES && acceptedCodings(request.headers['accept-encoding']).length > 0) {
    reply.type('application/json; charset=utf-8');
    if (prepared.encoded) return sendEncoded(request, reply, prepared.encoded);
    void encodedOf(prepared).then(
      (encoded) => sendEncoded(request, reply, encoded),
      () => sendIdentity(request, reply, prepared),
    );
    return reply;
  }
  return sendIdentity(request, reply, prepared);
}

function sendIdentity(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson) {
  reply.header('etag', prepared.etag);
  // Bodies this large have compressed forms for clients that ask: caches must key on Accept-Encoding.
  if (prepared.body.length >= COMPRESS_MIN_BYTES) reply.header('vary', 'Accept-Encoding');
  if (ifNoneMatch(request.headers['if-none-match'], prepared.etag)) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(prepared.body);
}
