import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';
import { MAX_JSON_DEPTH } from './limits';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON `text` nests arrays and objects deeper than `max`, found by
 * one linear scan before anything parses it (brackets inside strings do not
 * count). Stops a body of 15,000 `[` from reaching recursive code downstream
 * (Ajv, jsonb, schema walks) that would overflow the stack and answer 500.
 * On text that is not JSON the answer is meaningless; JSON.parse refuses it.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * JSON body parser that treats an empty body as "no body" (the official
 * GitBook client sends `Content-Type: application/json` with no body on POSTs
 * such as duplicate/restore, which Fastify's default parser rejects), and
 * refuses bodies nested deeper than {@link MAX_JSON_DEPTH} with a 400.
 * Strings PostgreSQL cannot store are refused later, for every part of the
 * request at once (text-guard.ts).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const body = typeof text === 'string' ? text : text.toString('utf8');
    if (body.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(body, MAX_JSON_DEPTH))
      return done(new ApiError(400, `Invalid JSON in request body: nested deeper than ${MAX_JSON_DEPTH} levels`));
    try {
      done(null, JSON.parse(body));
    } catch {
      done(new ApiError(400, 'Invalid JSON in request body'), undefined);
    }
  });
}
