import fc from 'fast-check';
import { invalidValue } from './openapi-fuzz-invalid';
import {
  encodeComponent,
  jsonRequest,
  queryPairs,
  type FuzzRequest,
  type Operation,
  type Parts,
  type RequestContext,
} from './openapi-fuzz-operations';
import { validValue } from './openapi-fuzz-schema';

/**
 * Invalid requests: each one mutation away from a valid one. Schema
 * violations in a path parameter, the query or the body; odd path segments
 * and URLs; odd query strings (bad encodings, repeated and prototype keys, a
 * request head over 16 kB); bodies nested around and far past the parser's
 * depth limit, of ~1 and 2 MB, malformed, or of another content type; a
 * method the path does not have.
 */

/**
 * Segments that have broken routers and handlers: invalid percent-encoding, a
 * lone surrogate and NUL, dot segments, encoded slashes, overlong and empty
 * ids, prototype keys, template syntax.
 */
export const ODD_SEGMENTS: readonly string[] = [
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%00',
  'a%00b',
  '%',
  '%zz',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%2F..%2F..%2Fetc%2Fpasswd',
  '',
  'a'.repeat(101),
  'a'.repeat(5000),
  '%20',
  '%E2%80%AE',
  '%C3%A9',
  '%F0%9F%92%A9',
  '__proto__',
  'constructor',
  'null',
  '0',
  '-1',
  ';x=1',
  '*',
  ':id',
  '%7BspaceId%7D',
  '%27%22%3Cscript%3E',
];

/** Content types a JSON route may be sent instead of application/json. */
const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/merge-patch+json',
];

/** Bodies that are not JSON, or not the JSON anyone expects. */
const MALFORMED_BODIES = [
  '{',
  '{"a":',
  'nul',
  '[1,]',
  "{'a':1}",
  '\u0000',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '"\\ud800"',
  '1e999999',
];

const SENTINEL = '\u0001fuzz-splice\u0001';

/** Raw JSON text spliced in where the sentinel stands: nested around a parser depth limit (128) or thousands deep. */
const deepText = fc
  .tuple(fc.constantFrom(100, 127, 129, 1000, 2000, 5000, 15_000), fc.constantFrom('array', 'object'))
  .map(([depth, kind]) => ({
    name: `deep-${kind}-${depth}`,
    text: kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth),
  }));
/** Just under the 1 MB body limit (reaches validation), or twice over it. */
const hugeText = fc.constantFrom(
  { name: 'huge-string-900k', text: JSON.stringify('x'.repeat(900_000)) },
  { name: 'huge-array-900k', text: `[${'0,'.repeat(450_000)}0]` },
);

/** Paths to every nested value of `v`, to pick one to replace. */
function slots(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (v === null || typeof v !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_x, i) => i) : Object.keys(v);
  return keys.flatMap((k) => [[...at, k], ...slots((v as Record<string | number, unknown>)[k], [...at, k])]);
}

function replaceAt(v: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [k, ...rest] = path;
  const copy = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, unknown>;
  copy[k!] = replaceAt(copy[k!], rest, value);
  return copy;
}

/** The body with one nested value (or the whole body) replaced by spliced raw text. */
function spliced(body: unknown, pick: number, splice: { text: string }): string {
  const places = [[], ...slots(body)];
  const where = places[pick % places.length]!;
  return JSON.stringify(replaceAt(body, where, SENTINEL)).replace(JSON.stringify(SENTINEL), () => splice.text);
}

/** The invalid mutations that apply to this operation, each an arbitrary of requests. */
export function mutations(op: Operation, ctx: RequestContext, base: fc.Arbitrary<Parts>): fc.Arbitrary<FuzzRequest>[] {
  const out: { weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzRequest>) => out.push({ weight, arbitrary });

  for (const { name, schema } of op.pathParams) {
    add(
      8,
      fc
        .tuple(base, fc.constantFrom(...ODD_SEGMENTS))
        .map(([p, seg]) => jsonRequest(op, `odd-path-${name}`, { ...p, params: { ...p.params, [name]: seg } })),
    );
    const bad = invalidValue(schema, ctx);
    if (bad) {
      add(
        4,
        fc.tuple(base, bad).map(([p, v]) =>
          jsonRequest(op, `invalid-path-${name}`, {
            ...p,
            params: { ...p.params, [name]: encodeComponent(typeof v === 'string' ? v : JSON.stringify(v)) },
          }),
        ),
      );
    }
  }

  for (const q of op.query) {
    const bad = invalidValue(q.schema, ctx);
    if (bad) {
      add(
        4,
        fc.tuple(base, bad).map(([p, v]) =>
          jsonRequest(op, `invalid-query-${q.name}`, {
            ...p,
            // Replaces the valid value (a repeated key would be refused for being repeated).
            query: [
              ...p.query.filter((pair) => !pair.startsWith(`${encodeComponent(q.name)}=`)),
              ...queryPairs(q.name, v),
            ],
          }),
        ),
      );
    }
  }
  // Odd query strings: bad encodings, repeated keys, prototype keys, a request head over 16 kB.
  const oddQuery = fc.constantFrom(
    'limit=1&limit=2',
    'page=%FF',
    'query=%00',
    'a=%ED%A0%80',
    '%',
    '&&&=',
    '__proto__[x]=1',
    'constructor.prototype.x=1',
    `q=${'x'.repeat(20_000)}`,
    ...(op.query.length > 0 ? [`${encodeComponent(op.query[0]!.name)}=${'9'.repeat(400)}`] : []),
  );
  add(
    4,
    fc.tuple(base, oddQuery).map(([p, q]) => jsonRequest(op, `odd-query`, { ...p, query: [...p.query, q] })),
  );

  if (op.body) {
    const bad = invalidValue(op.body.schema, ctx);
    if (bad)
      add(
        16,
        fc.tuple(base, bad).map(([p, v]) => jsonRequest(op, 'invalid-body', { ...p, body: v })),
      );
    const examples = ctx.exampleBodies(op);
    const drawn = validValue(op.body.schema, ctx);
    // Deep values spliced into known-good bodies reach past validation (a JSON schema's properties, a document's nodes).
    const anyBody = examples.length > 0 ? fc.oneof(drawn, fc.constantFrom(...examples)) : drawn;
    add(
      8,
      fc
        .tuple(base, anyBody, fc.nat(), deepText)
        .map(([p, b, pick, deep]) => ({ ...jsonRequest(op, `body-${deep.name}`, p), body: spliced(b, pick, deep) })),
    );
    add(
      4,
      fc.tuple(base, anyBody, fc.constantFrom(...ODD_CONTENT_TYPES)).map(([p, b, type]) => ({
        ...jsonRequest(op, `content-type ${type}`, { ...p, body: b }),
        headers: { 'content-type': type },
      })),
    );
  }
  // Bodies that are not JSON at all, on every operation (most ignore or refuse a body they do not expect).
  add(
    4,
    fc.tuple(base, fc.constantFrom(...MALFORMED_BODIES)).map(([p, text]) => ({
      ...jsonRequest(op, 'malformed-json', p),
      headers: { 'content-type': 'application/json' },
      body: text,
    })),
  );
  // Rare and heavy (weight 1 of ~40-80): ~1 MB bodies and 2 MB ones (over the body limit).
  add(
    1,
    fc.tuple(base, fc.option(hugeText, { nil: undefined }), fc.nat()).map(([p, huge, pick]) => {
      const req = jsonRequest(op, huge ? `body-${huge.name}` : 'body-2mb', p);
      return {
        ...req,
        headers: { 'content-type': 'application/json' },
        body: huge ? spliced(p.body ?? {}, pick, huge) : JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }),
      };
    }),
  );
  const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !op.siblingMethods.includes(m));
  if (otherMethods.length > 0) {
    add(
      2,
      fc
        .tuple(base, fc.constantFrom(...otherMethods))
        .map(([p, m]) => ({ ...jsonRequest(op, `method-${m}`, p), method: m })),
    );
  }
  // Path shapes around the route: trailing and doubled slashes, dot segments, case.
  add(
    2,
    fc
      .tuple(
        base,
        fc.constantFrom(
          (s: string) => `${s}/`,
          (s: string) => s.replace('/v1/', '/v1//'),
          (s: string) => s.replace('/v1/', '/v1/./'),
          (s: string) => s.replace('/v1/', '/v1/x/../'),
          (s: string) => s.replace('/v1/', '/V1/'),
        ),
      )
      .map(([p, f]) => {
        const req = jsonRequest(op, 'odd-url', p);
        const [path, query] = req.path.split('?');
        return { ...req, path: f(path!) + (query !== undefined ? `?${query}` : '') };
      }),
  );
  return out.length > 0 ? [fc.oneof(...out)] : [];
}
