import fc from 'fast-check';
import {
  alternatives,
  compile,
  flatten,
  patternSamples,
  types,
  validObject,
  validValue,
  type JsonSchema,
  type ValueContext,
} from './openapi-fuzz-schema';

/**
 * Values a JSON schema refuses (the counterpart of `validValue`): a wrong
 * type, an enum miss, a string too long or too short or breaking its
 * pattern, a number out of range, an object missing a required property or
 * carrying an unknown one (`__proto__` among them) or a bad property value,
 * an array with too many items or a bad item.
 */

/** Characters that break id-like patterns: path separators, spaces, NUL, a lone surrogate, non-ASCII. */
const PATTERN_BREAKERS = ['/', ' ', '\u0000', '\ud800', '.', '%', '?', '#', 'é', '\n', '..', '*', '\\'];

/** One sample of each JSON type, to find values of a type the schema does not allow. */
const TYPE_SAMPLES: { type: string; values: unknown[] }[] = [
  { type: 'string', values: ['text', '', '0', 'true', 'null'] },
  { type: 'number', values: [1.5, -0.25, 1e300] },
  { type: 'integer', values: [0, -1, 42, 2 ** 53] },
  { type: 'boolean', values: [true, false] },
  { type: 'null', values: [null] },
  { type: 'array', values: [[], ['a'], [[1]]] },
  { type: 'object', values: [{}, { a: 1 }] },
];

/** Values of JSON types none of the allowed types accepts (integers are numbers too). */
function wrongTypes(allowed: string[]): unknown[] {
  return TYPE_SAMPLES.filter(
    ({ type }) => !allowed.includes(type) && !(type === 'integer' && allowed.includes('number')),
  ).flatMap((t) => t.values);
}

/** Every type the value may have, over the alternatives; undefined when some alternative allows anything. */
function allowedTypes(s: JsonSchema): string[] | undefined {
  const alts = alternatives(s);
  if (!alts) return s.enum || 'const' in s ? undefined : types(s);
  const all: string[] = [];
  for (const a of alts) {
    const t = allowedTypes(flatten(a));
    if (!t) return undefined;
    all.push(...t);
  }
  return all;
}

function invalidString(s: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  if (s.maxLength !== undefined) {
    const over = s.maxLength + 1;
    out.push(fc.constantFrom('a'.repeat(over), 'é'.repeat(over), '𝕏'.repeat(over), 'x'.repeat(over + 5000)));
  }
  if (s.minLength !== undefined && s.minLength > 0) out.push(fc.constant('a'.repeat(s.minLength - 1)));
  if (s.pattern !== undefined) {
    // Matching strings with a breaker put in at the start, middle or end, and whitespace alone (for `\\S`):
    // computed once, keeping only what the pattern refuses.
    const re = compile(s.pattern);
    const candidates = new Set([' ', '\t\n', '  ', '']);
    for (const ok of patternSamples(s.pattern).slice(0, 4))
      for (const bad of PATTERN_BREAKERS)
        for (const at of [0, ok.length >> 1, ok.length]) candidates.add(ok.slice(0, at) + bad + ok.slice(at));
    const refused = [...candidates].filter((v) => !re.test(v));
    if (refused.length > 0) out.push(fc.constantFrom(...refused));
  }
  if (s.format === 'email') out.push(fc.constantFrom('not-an-email', '@', 'a@', 'a@b@c', 'a\u0000@example.com'));
  if (s.format === 'uri') out.push(fc.constantFrom('not a uri', '::', 'http://', '\u0000'));
  return out;
}

function invalidNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<unknown>[] {
  const out: unknown[] = [];
  if (s.minimum !== undefined) out.push(s.minimum - 1, s.minimum - 1e9);
  if (s.maximum !== undefined) out.push(s.maximum + 1, s.maximum + 1e9);
  if (integer) out.push(1.5, 1e-9);
  return out.length > 0 ? [fc.constantFrom(...out)] : [];
}

function invalidObject(s: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const props = s.properties ?? {};
  const valid = validObject(s, ctx);
  const required = (s.required ?? []).filter((k) => k in props);
  if (required.length > 0) {
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([o, k]) => {
        const { [k]: _dropped, ...rest } = o;
        return rest;
      }),
    );
  }
  if (s.additionalProperties === false) {
    const extra = fc.constantFrom('extra', '__proto__', 'constructor', 'toString', '', '\u0000', 'k'.repeat(300));
    out.push(fc.tuple(valid, extra, fc.jsonValue({ maxDepth: 1 })).map(([o, k, v]) => withKey(o, k, v)));
  }
  if ((s.minProperties ?? 0) > 0) out.push(fc.constant({}));
  const breakable = Object.entries(props)
    .map(([k, v]) => [k, invalidValue(v, ctx)] as const)
    .filter((e): e is readonly [string, fc.Arbitrary<unknown>] => e[1] !== undefined);
  if (breakable.length > 0) {
    out.push(
      fc
        .tuple(valid, fc.oneof(...breakable.map(([k, arb]) => arb.map((v) => [k, v] as const))))
        .map(([o, [k, v]]) => withKey(o, k, v)),
    );
  }
  return out;
}

/** A copy of `o` with own property `k` (defineProperty: `__proto__` must become a key, not a prototype). */
function withKey(o: Record<string, unknown>, k: string, v: unknown): Record<string, unknown> {
  const copy = { ...o };
  Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
  return copy;
}

function invalidArray(s: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const item = s.items ? validValue(s.items, ctx) : fc.jsonValue({ maxDepth: 1 });
  // Copies of one item: cheap even for maxItems = 1000.
  if (s.maxItems !== undefined) out.push(item.map((v) => Array.from({ length: s.maxItems! + 1 }, () => v)));
  if (s.minItems !== undefined && s.minItems > 0) out.push(fc.constant([]));
  const badItem = s.items ? invalidValue(s.items, ctx) : undefined;
  if (badItem) out.push(fc.tuple(fc.array(item, { maxLength: 2 }), badItem).map(([ok, bad]) => [...ok, bad]));
  return out;
}

/** Values the schema refuses, or undefined when it accepts anything. */
export function invalidValue(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown> | undefined {
  const s = flatten(schema);
  const out: fc.Arbitrary<unknown>[] = [];
  const allowed = allowedTypes(s);
  if (allowed) {
    const wrong = wrongTypes(allowed);
    if (wrong.length > 0) out.push(fc.constantFrom(...wrong));
  }
  if (s.enum || 'const' in s) {
    const accepted = s.enum ?? [s.const];
    const outside = ['not-in-enum', '', 'ADMIN', 7, null, true].filter((v) => !accepted.includes(v));
    if (outside.length > 0) out.push(fc.constantFrom(...outside));
  }
  // Constraint violations: only for a schema without alternatives (one of them might accept the value).
  if (!alternatives(s)) {
    for (const t of types(s) ?? []) {
      if (t === 'string') out.push(...invalidString(s));
      if (t === 'integer' || t === 'number') out.push(...invalidNumber(s, t === 'integer'));
      if (t === 'object') out.push(...invalidObject(s, ctx));
      if (t === 'array') out.push(...invalidArray(s, ctx));
    }
  }
  return out.length > 0 ? fc.oneof(...out) : undefined;
}
