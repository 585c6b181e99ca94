import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { EMOJI_PATTERN } from '../../shared/emoji';

/**
 * Validates response bodies against GitBook's own OpenAPI spec (shipped in
 * `@gitbook/api/spec/openapi.json`): the response schema of an operationId
 * for a status code. This is the wire-compatibility check of every API test.
 */
const require = createRequire(import.meta.url);
const SPEC_PATH = require.resolve('@gitbook/api/spec/openapi.json');
type Operation = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, Operation>> };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addFormat('emoji', EMOJI_PATTERN);
// GitBook's icon names ("house", "circle-info"); the format names a vocabulary, not a syntax to check.
ajv.addFormat('icon', /^[a-z0-9-]{1,50}$/);
// OpenAPI-only keywords that are not JSON Schema.
for (const kw of ['example', 'discriminator', 'xml', 'externalDocs']) if (!ajv.getKeyword(kw)) ajv.addKeyword(kw);
ajv.addSchema(spec as object, 'gitbook');

const operations = new Map<string, { path: string; method: string; op: Operation }>();
for (const [path, methods] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    if (op && typeof op === 'object' && op.operationId) operations.set(op.operationId, { path, method, op });
  }
}

const cache = new Map<string, ValidateFunction>();
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The compiled validator for `operationId`'s `status` response, or undefined when the spec declares no JSON body. */
export function responseValidator(operationId: string, status: number): ValidateFunction | undefined {
  const key = `${operationId}:${status}`;
  if (cache.has(key)) return cache.get(key);
  const found = operations.get(operationId);
  if (!found) throw new Error(`GitBook's spec has no operation "${operationId}"`);
  const response = found.op.responses?.[String(status)] ?? found.op.responses?.default;
  if (!response) throw new Error(`GitBook's spec declares no ${status} response for ${operationId}`);
  const content = response.content?.['application/json'];
  if (!content?.schema) return undefined;
  const status_ = found.op.responses?.[String(status)] ? String(status) : 'default';
  const ref = `gitbook#/paths/${pointer(found.path)}/${found.method}/responses/${status_}/content/${pointer('application/json')}/schema`;
  const validate = ajv.compile({ $ref: ref });
  cache.set(key, validate);
  return validate;
}

/** Throws a readable error unless `body` matches GitBook's schema for that response. */
export function assertMatchesGitBook(operationId: string, status: number, body: unknown): void {
  const validate = responseValidator(operationId, status);
  if (!validate) {
    if (body !== undefined && body !== null && body !== '')
      throw new Error(
        `${operationId} ${status}: GitBook declares no JSON body, got ${JSON.stringify(body).slice(0, 200)}`,
      );
    return;
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(
      `${operationId} ${status} does not match GitBook's schema:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
}

/** Whether GitBook's spec knows this operationId (used by the coverage test). */
export function knownOperation(operationId: string): boolean {
  return operations.has(operationId);
}

/** Throws a readable error unless `body` matches one of GitBook's component schemas (e.g. `Event`). */
export function assertMatchesGitBookSchema(schemaName: string, body: unknown): void {
  const key = `#schema:${schemaName}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `gitbook#/components/schemas/${pointer(schemaName)}` });
    cache.set(key, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`not GitBook's ${schemaName}:\n${errors.join('\n')}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
