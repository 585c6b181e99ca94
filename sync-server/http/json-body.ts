import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

/**
 * JSON body parser that treats an empty body as "no body": the official
 * GitBook client sends `Content-Type: application/json` with no body on POSTs
 * such as duplicate/restore, which Fastify's default parser rejects.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const body = typeof text === 'string' ? text : text.toString('utf8');
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch {
      done(new ApiError(400, 'Invalid JSON in request body'), undefined);
    }
  });
}
