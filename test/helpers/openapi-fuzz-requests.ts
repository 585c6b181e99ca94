import fc from 'fast-check';
import { mutations } from './openapi-fuzz-mutations';
import {
  encodeParam,
  jsonRequest,
  queryPairs,
  type FuzzRequest,
  type Operation,
  type Parts,
  type RequestContext,
} from './openapi-fuzz-operations';
import { validValue } from './openapi-fuzz-schema';

/**
 * fast-check arbitraries of requests for one operation: valid ones (path ids
 * of real resources, query and body drawn from the schemas, the fixture's
 * known-good bodies) and, as often, invalid ones (openapi-fuzz-mutations.ts).
 */

/** Valid parts: real ids (mostly) or well-formed unknown ids, schema-valid query and body. */
function validParts(op: Operation, ctx: RequestContext): fc.Arbitrary<Parts> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const { name, schema } of op.pathParams) {
    const real = ctx.pathValues(op, name);
    const drawn = validValue(schema, ctx).map((v) => String(v));
    const any = real.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...real) }, drawn) : drawn;
    params[name] = any.map((v) => encodeParam(name, v));
  }
  const signed = ctx.signedQuery(op);
  const query = fc
    .tuple(
      ...op.query
        .filter((q) => !signed || !(q.name in signed))
        .map((q) => {
          const value = validValue(q.schema, ctx, q.name);
          return (q.required ? value : fc.option(value, { nil: undefined })).map((v) => queryPairs(q.name, v));
        }),
    )
    .map((pairs) => [...pairs.flat(), ...Object.entries(signed ?? {}).flatMap(([k, v]) => queryPairs(k, v))]);
  const examples = ctx.exampleBodies(op);
  const drawn = op.body ? validValue(op.body.schema, ctx) : fc.constant(undefined);
  const anyBody = examples.length > 0 ? fc.oneof(drawn, fc.constantFrom(...examples)) : drawn;
  const body = op.body && !op.body.required ? fc.option(anyBody, { nil: undefined }) : anyBody;
  return fc.record({ params: fc.record(params), query, body });
}

/** Requests for one operation: about half valid, half one mutation away from valid. */
export function requestArbitrary(op: Operation, ctx: RequestContext): fc.Arbitrary<FuzzRequest> {
  const base = validParts(op, ctx);
  const raw = ctx.rawBody(op);
  const valid = base.map((p) =>
    raw
      ? { ...jsonRequest(op, 'valid', p), headers: { 'content-type': raw.type }, body: raw.text }
      : jsonRequest(op, 'valid', p),
  );
  return fc.oneof(valid, ...mutations(op, ctx, base));
}
