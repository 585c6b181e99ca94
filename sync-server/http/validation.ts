import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { EMOJI_PATTERN } from '../../shared/emoji';

/** Formats GitBook's schemas use beyond the standard ones. */
function addCustomFormats(ajv: Ajv): void {
  // GitBook's "emoji" format: a unicode emoji or its hex code point(s), or empty.
  ajv.addFormat('emoji', EMOJI_PATTERN);
}

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, ...options });
  addFormats(ajv);
  addCustomFormats(ajv);
  return ajv;
}

/**
 * Two validators: query strings and path params are text, so they are coerced
 * to the declared types ("limit=5" -> 5); bodies are JSON and must already
 * have the right types ({"title": 5} is a 400, never silently "5"). Neither
 * strips unknown properties: where a schema forbids them, they are an error.
 */
export function installValidators(app: FastifyInstance): void {
  const coercing = makeAjv({ coerceTypes: 'array', removeAdditional: false });
  const strict = makeAjv({ coerceTypes: false, removeAdditional: false });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as FastifySchema & object);
  });
}
