import { createRequire } from 'node:module';
import type SerializerSelector from '@fastify/fast-json-stringify-compiler';
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyServerOptions, FastifySchema } from 'fastify';
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

/** What Fastify calls per request: Ajv's signature, with Ajv's `errors` read back after each call. */
type LazyValidator = ((data: unknown, ctx?: unknown) => boolean) & {
  errors?: ValidateFunction['errors'];
  /** Truthy, so Fastify passes `{ parentData, parentDataProperty }` as it does to an Ajv function (root coercion). */
  schemaEnv?: unknown;
};

/**
 * A validator compiled on its first call, not when its route is registered: compiling the few
 * hundred route schemas (and their HEAD twins) at boot was about half a second of the server's
 * start, and most routes are not called for a while, if ever. Behaviour is Ajv's own — the same
 * compiled function, the same `errors`, the same parent data for coercion.
 */
export function lazyValidator(compile: () => ValidateFunction): LazyValidator {
  let compiled: ValidateFunction | undefined;
  const validate: LazyValidator = (data, ctx) => {
    compiled ??= compile();
    const ok = compiled(data, ctx as Parameters<ValidateFunction>[1]);
    validate.errors = compiled.errors;
    return ok;
  };
  validate.schemaEnv = true;
  return validate;
}

/** A response serializer built by fast-json-stringify on the first reply that needs it, for the same reason. */
export function lazySerializer(build: () => (data: unknown) => string): (data: unknown) => string {
  let built: ((data: unknown) => string) | undefined;
  return (data) => (built ??= build())(data);
}

/**
 * Two validators: query strings and path params are text, so they are coerced
 * to the declared types ("limit=5" -> 5); bodies are JSON and must already
 * have the right types ({"title": 5} is a 400, never silently "5"). Neither
 * strips unknown properties: where a schema forbids them, they are an error.
 * Both, and the response serializers, compile per route on first use.
 */
export function installValidators(app: FastifyInstance): void {
  let coercing: Ajv | undefined;
  let strict: Ajv | undefined;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazyValidator(() => {
      const ajv =
        httpPart === 'body'
          ? (strict ??= makeAjv({ coerceTypes: false, removeAdditional: false }))
          : (coercing ??= makeAjv({ coerceTypes: 'array', removeAdditional: false }));
      return ajv.compile(schema as FastifySchema & object);
    }),
  );
  // Fastify's own serializer compiler (fast-json-stringify, no shared schemas: Folio adds none with
  // addSchema), only deferred, and its package loaded by the first reply that needs it.
  let serializerFor: ReturnType<ReturnType<typeof SerializerSelector>> | undefined;
  app.setSerializerCompiler((route) =>
    lazySerializer(() => {
      serializerFor ??= (load('@fastify/fast-json-stringify-compiler') as typeof SerializerSelector)()({}, undefined);
      return serializerFor(route as Parameters<typeof serializerFor>[0]);
    }),
  );
}

// A synchronous load at first use: a serializer must exist when the reply is being sent.
const load = createRequire(import.meta.url);
const unused = () => {
  throw new Error('Folio installs its own schema compilers (installValidators)');
};

/**
 * Fastify's `schemaController` option. Without it Fastify loads its default compilers' packages
 * (@fastify/ajv-compiler, fast-json-stringify) when the app is created, though installValidators
 * replaces both before any route exists.
 */
export const SCHEMA_CONTROLLER: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator: unused, buildSerializer: unused },
};
