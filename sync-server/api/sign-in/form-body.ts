import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors';

/** A form post of the sign-in pages (a few short fields). */
export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Parses `application/x-www-form-urlencoded` bodies (what an HTML form posts)
 * into a plain object of strings, in the plugin it is called in only: the
 * /v1 API takes JSON and nothing else. A field given twice keeps its first
 * value. Each sign-in sub-plugin that takes form posts calls this in its own
 * scope (`limit`: a SAML response is far larger than a consent form).
 */
export function installFormParser(app: FastifyInstance, limit = FORM_BODY_LIMIT): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: limit },
    (_req, text, done) => {
      try {
        const fields = new Map<string, string>();
        for (const [key, value] of new URLSearchParams(typeof text === 'string' ? text : text.toString('utf8')))
          if (!fields.has(key)) fields.set(key, value);
        // fromEntries defines own properties: a field named __proto__ is a field, not a prototype.
        done(null, Object.fromEntries(fields));
      } catch {
        done(new ApiError(400, 'Invalid form body'), undefined);
      }
    },
  );
}
