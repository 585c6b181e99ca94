import type { FastifyReply, FastifyRequest } from 'fastify';

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
  if (matches(request.headers['if-none-match'], quoted)) return reply.status(304).send();
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
}

export function prepareJson(etag: string, json: string): PreparedJson {
  return { etag: `"${etag}"`, body: Buffer.from(json, 'utf8') };
}

/** sendJsonWithEtag for a prepared response. */
export function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson) {
  reply.header('etag', prepared.etag).header('cache-control', 'private, no-cache');
  if (matches(request.headers['if-none-match'], prepared.etag)) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(prepared.body);
}

/** Whether an If-None-Match header names `quoted` (weak or strong). */
function matches(header: string | undefined, quoted: string): boolean {
  return !!header && header.split(',').some((m) => m.trim().replace(/^W\//, '') === quoted);
}
