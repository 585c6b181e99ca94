import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Methods that change nothing: their request lines are logged at debug. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Fastify's per-request log lines ("incoming request", "request completed"),
 * leveled by what the request does: writes at info, as Fastify logs every
 * request, but reads (GET, HEAD, OPTIONS) at debug, so at the default level a
 * read that succeeds writes no line (two JSON lines cost more than a cached
 * read itself). A response with a 5xx (or a failed stream) is logged at error
 * whatever the method. The lines keep their redacted fields: the logger's
 * serializers (observability/log-redaction.ts) apply at every level.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (READS.has(request.method)) request.log.debug({ req: request }, 'incoming request');
    else request.log.info({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { res: reply, responseTime: reply.elapsedTime };
    if (error || reply.statusCode >= 500) reply.log.error({ ...line, err: error }, 'request errored');
    else if (READS.has(request.method)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
