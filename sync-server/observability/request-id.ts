import type { FastifyInstance } from 'fastify';

/** Ids a client may choose: short and plain, so they cannot forge log lines or headers. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Every response carries `x-request-id`: the caller's own (when it sent a
 * safe one, so a request can be followed across a proxy) or Fastify's; the
 * same id is on every log line of the request.
 */
export function installRequestIds(app: FastifyInstance): void {
  // A callback hook: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}

let counter = 0;
/** The process part of generated ids, made once (the pid never changes while the process runs). */
const PREFIX = `req-${process.pid.toString(36)}-`;

/** Fastify's genReqId: the caller's safe x-request-id, else a process-unique one. */
export function requestIdFor(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  if (given && SAFE_ID.test(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return PREFIX + counter.toString(36);
}
