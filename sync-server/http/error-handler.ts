import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseUnavailableError } from '../store/db';
import { BlobStoreUnavailableError } from '../store/blob-store';
import { ApiError, errorBody } from './errors';

/**
 * Installs the error and not-found handlers: validation failures become 400
 * with Ajv's message, ApiErrors keep their status, a lost database or blob
 * store becomes 503 with Retry-After,
 * and anything else is a 500 that never leaks a stack, SQL or internal ids.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      return reply.status(err.status).send(errorBody(err.status, err.message));
    }
    if (err.validation) {
      return reply
        .status(400)
        .send(errorBody(400, validationMessage(err.validationContext ?? 'request', err.validation)));
    }
    if (err instanceof DatabaseUnavailableError) {
      request.log.error({ err: err.cause }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(errorBody(503, 'The service is temporarily unavailable; retry shortly'));
    }
    if (err instanceof BlobStoreUnavailableError) {
      // The bucket is unreachable or refusing: nothing was recorded, the same request may succeed shortly.
      request.log.error({ err: err.cause }, 'blob store unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(errorBody(503, 'File storage is temporarily unavailable; retry shortly'));
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

type AjvIssue = NonNullable<FastifyError['validation']>[number];

/**
 * A schema violation named by field and rule, as GitBook words it:
 * `body.title: must NOT have more than 50 characters`,
 * `body.changes[2]: must have required property 'page'` → `body.changes[2].page: is required`.
 */
export function validationMessage(where: string, issues: AjvIssue[]): string {
  const first = issues[0];
  if (!first) return `Invalid ${where}`;
  let path = where;
  for (const seg of first.instancePath.split('/').slice(1)) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  if (first.keyword === 'required' && params.missingProperty) return `${path}.${params.missingProperty}: is required`;
  if (first.keyword === 'additionalProperties' && params.additionalProperty)
    return `${path}.${params.additionalProperty}: is not a known property`;
  return `${path}: ${first.message ?? 'is invalid'}`;
}
