import fc from 'fast-check';

/**
 * JSON schema -> fast-check arbitraries, for the subset our route schemas use
 * (see `/v1/openapi.json`): type (one or several), enum, const, anyOf/oneOf/allOf,
 * object properties/required/additionalProperties/minProperties, string
 * minLength/maxLength/pattern/format, integer/number minimum/maximum, boolean,
 * null, nullable, array items/minItems/maxItems. `validValue` draws values the
 * schema accepts; `invalidValue` (openapi-fuzz-invalid.ts) values it refuses.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
}

/** What valid generation may draw on besides the schema: ids of real resources, so requests reach deep code. */
export interface ValueContext {
  /** Ids of the fixture's resources; strings with an id-like pattern are often one of these. */
  ids: readonly string[];
  /** Ids of the right kind for a property or query parameter of this name (`spaceId`, `users`…), if known. */
  idsFor?(name: string): readonly string[] | undefined;
}

/**
 * Strings every text field must survive (they are valid wherever a schema has
 * no pattern): NUL, lone surrogates, bidi overrides, BOM, combining marks,
 * astral and ZWJ emoji, and injection-shaped text (SQL, HTML, templates, paths).
 */
export const NASTY_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202egnp.exe',
  '\ufeffBOM',
  'e\u0301\u0301\u0301',
  '𝕏𝔂𝔃',
  '👩‍👩‍👧‍👦',
  '\u2028\u2029',
  '\r\n\t ',
  ' ',
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '%00%ff',
  '\\u0000',
  '[[[[[[[[[[x]]]]]]]]]]',
  '# h\n\n- a\n  - b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  // Markdown that is expensive to analyse (fields long enough for it: comment bodies).
  '['.repeat(9000) + 'x' + ']'.repeat(9000),
  '>'.repeat(10_000) + ' x',
  '|a'.repeat(2000) + '|\n' + '|-'.repeat(2000) + '|\n',
  Array.from({ length: 110 }, (_, i) => '  '.repeat(i) + '- x').join('\n'),
];

const BIG = 1_000_000;

export function types(s: JsonSchema): string[] | undefined {
  if (s.type === undefined) return undefined;
  const list = Array.isArray(s.type) ? [...s.type] : [s.type];
  if (s.nullable && !list.includes('null')) list.push('null');
  return list;
}

/** The schema's alternatives (anyOf/oneOf), each merged with the keywords beside them. */
export function alternatives(s: JsonSchema): JsonSchema[] | undefined {
  const alts = s.anyOf ?? s.oneOf;
  if (!alts) return undefined;
  const { anyOf: _a, oneOf: _o, ...rest } = s;
  return alts.map((a) => ({ ...rest, ...a }));
}

/** allOf merged into one schema (shallow: our schemas only use it for simple composition). */
export function flatten(s: JsonSchema): JsonSchema {
  if (!s.allOf) return s;
  const { allOf, ...rest } = s;
  return allOf.reduce<JsonSchema>(
    (acc, part) => {
      const p = flatten(part);
      return {
        ...acc,
        ...p,
        properties: { ...acc.properties, ...p.properties },
        required: [...(acc.required ?? []), ...(p.required ?? [])],
      };
    },
    { ...rest },
  );
}

const compiled = new Map<string, RegExp>();
export function compile(pattern: string): RegExp {
  let re = compiled.get(pattern);
  // Ajv compiles patterns with the `u` flag; match exactly what the server checks.
  if (!re) compiled.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
}

/** Whether a string meets the schema's length and pattern (code points, as Ajv counts). */
export function stringFits(s: JsonSchema, value: string): boolean {
  const length = [...value].length;
  if (s.minLength !== undefined && length < s.minLength) return false;
  if (s.maxLength !== undefined && length > s.maxLength) return false;
  return s.pattern === undefined || compile(s.pattern).test(value);
}

/**
 * Values of `arb` that fit, others replaced by `fallback`. Never `filter`: a
 * generator that rarely fits (an unanchored pattern, a tight length) would
 * make fast-check retry forever.
 */
function fitted(arb: fc.Arbitrary<string>, fits: (v: string) => boolean, fallback: string): fc.Arbitrary<string> {
  return arb.map((v) => (fits(v) ? v : fallback));
}

const samplesByPattern = new Map<string, string[]>();
/** A few strings matching the pattern, drawn once with a fixed seed. */
export function patternSamples(pattern: string): string[] {
  let samples = samplesByPattern.get(pattern);
  if (!samples) {
    samples = fc.sample(fc.stringMatching(compile(pattern)), { seed: 1, numRuns: 12 });
    samplesByPattern.set(pattern, samples);
  }
  return samples;
}

function validString(s: JsonSchema, ctx: ValueContext, name?: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? min + 64, min + 64);
  const fits = (v: string) => stringFits(s, v);
  const padded = 'a'.repeat(min);
  if (s.format === 'email') return fitted(fc.emailAddress(), fits, 'fuzz@example.com');
  if (s.format === 'uri') {
    const odd = ['javascript:alert(1)', 'file:///etc/passwd', 'http://127.0.0.1:6379/', 'data:text/html,<b>x</b>'];
    return fitted(fc.oneof(fc.webUrl(), fc.constantFrom(...odd)), fits, 'https://example.com/');
  }
  if (s.format === 'emoji') return fc.constantFrom('', '📘', '🚀', '1f4d8', '1f469-200d-1f4bb', '👩‍💻');
  if (s.pattern !== undefined) {
    const ids = ((name !== undefined && ctx.idsFor?.(name)) || ctx.ids).filter(fits);
    const samples = patternSamples(s.pattern);
    const fallback = [...ids, ...samples].find(fits) ?? samples[0]!;
    const matching = fitted(fc.stringMatching(compile(s.pattern)), fits, fallback);
    return ids.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, matching) : matching;
  }
  const nasty = NASTY_STRINGS.filter(fits);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fitted(fc.lorem({ maxCount: 8 }), fits, padded) },
    ...(nasty.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...nasty) }] : []),
  );
}

function validNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : -BIG);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : BIG);
  if (integer) {
    min = Math.ceil(min);
    max = Math.floor(max);
    // Edges are where off-by-one bugs live.
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

export function validObject(s: JsonSchema, ctx: ValueContext): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  if (Object.keys(props).length === 0) {
    if (s.additionalProperties === false) return fc.constant({});
    // A free-form object (document data, JSON schemas): any small JSON.
    return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: s.minProperties ?? 0,
      maxKeys: 4,
    });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = validValue(v, ctx, k);
  const record = fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
  // minProperties: top up with the first optional properties rather than filter (see `fitted`).
  const minProps = s.minProperties ?? 0;
  if (minProps === 0) return record;
  const optional = Object.keys(props).filter((k) => !(s.required ?? []).includes(k));
  const topUp = fc.record(Object.fromEntries(optional.slice(0, minProps).map((k) => [k, model[k]!])));
  return fc.tuple(record, topUp).map(([o, extra]) => (Object.keys(o).length >= minProps ? o : { ...extra, ...o }));
}

/** Values the schema accepts; `name` is the property (or parameter) they are for, to pick ids of the right kind. */
export function validValue(schema: JsonSchema, ctx: ValueContext, name?: string): fc.Arbitrary<unknown> {
  const s = flatten(schema);
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = alternatives(s);
  if (alts) return fc.oneof(...alts.map((a) => validValue(a, ctx, name)));
  const list = types(s);
  if (!list) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...list.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return validString(s, ctx, name);
        case 'integer':
          return validNumber(s, true);
        case 'number':
          return validNumber(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(s.items ? validValue(s.items, ctx, name) : fc.jsonValue({ maxDepth: 1 }), {
            minLength: s.minItems ?? 0,
            maxLength: Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 4),
          });
        case 'object':
          return validObject(s, ctx);
        default:
          throw new Error(`openapi fuzz: unsupported schema type ${t}`);
      }
    }),
  );
}
