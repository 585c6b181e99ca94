import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseUnavailableError } from '../store/db';

/**
 * An error a route reports to the caller. It is rendered in GitBook's shape
 * `{"error": {"code": <status>, "message": "..."}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Authentication required: pass "Authorization: Bearer <token>"') =>
  new ApiError(401, message);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);

/** The body every error response carries. */
export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

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
