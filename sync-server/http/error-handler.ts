import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseUnavailableError } from '../store/db';
import { ApiError, errorBody } from './errors';

/**
 * Installs the error and not-found handlers: validation failures become 400
 * with Ajv's message, ApiErrors keep their status, a lost database becomes 503,
 * and anything else is a 500 that never leaks a stack, SQL or internal ids.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      return reply.status(err.status).send(errorBody(err.status, err.message));
    }
    if (err.validation) {
      const where = err.validationContext ?? 'request';
      return reply
        .status(400)
        .send(errorBody(400, `Invalid ${where}: ${err.message.replace(/^(body|querystring|params|headers)\/?/, '')}`));
    }
    if (err instanceof DatabaseUnavailableError) {
      request.log.error({ err: err.cause }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(errorBody(503, 'The service is temporarily unavailable; retry shortly'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large, ...
      return reply.status(status).send(errorBody(status, err.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody(500, 'Internal server error'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(404, `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
