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
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((m) => m.trim().replace(/^W\//, '') === quoted)) {
    return reply.status(304).send();
  }
  return sendSerializedJson(reply, json);
}
