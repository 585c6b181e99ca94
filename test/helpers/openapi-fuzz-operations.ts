import type { JsonSchema, ValueContext } from './openapi-fuzz-schema';

/**
 * The operations of `/v1/openapi.json` and the requests generated for them:
 * the model, and how their parts go on the wire (percent-encoding that
 * survives lone surrogates, query pairs, paths from templates).
 */

/** One operation of the OpenAPI document. */
export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/v1/spaces/{spaceId}`. */
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  body?: { schema: JsonSchema; required: boolean };
  /** Methods the document defines for the same path (a swap to another one must not reach a route). */
  siblingMethods: string[];
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: unknown): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries((doc as OpenApiDoc).paths)) {
    const siblingMethods = Object.keys(methods).map((m) => m.toUpperCase());
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const json = op.requestBody?.content?.['application/json'];
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema })),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema, required: p.required === true })),
        body: json ? { schema: json.schema, required: op.requestBody?.required === true } : undefined,
        siblingMethods,
      });
    }
  }
  return out;
}

/** One generated request, ready to send: the path is already encoded, the body is raw text. */
export interface FuzzRequest {
  operationId: string;
  /** "valid", or which mutation made the request invalid. */
  mutation: string;
  method: string;
  /** Path and query, percent-encoded (possibly badly, on purpose). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the fixture contributes: real resource ids per path parameter, and signed query values. */
export interface RequestContext extends ValueContext {
  /** Real values for a path parameter of this operation (empty: none known). */
  pathValues(op: Operation, name: string): readonly string[];
  /** Query values a valid request needs that no schema can produce (signatures of signed URLs). */
  signedQuery(op: Operation): Record<string, string> | undefined;
  /** Known-good bodies that random values rarely hit (a JSON schema, a comment document), or none. */
  exampleBodies(op: Operation): readonly unknown[];
  /** A raw body and its content type for operations that take bytes, not JSON (uploads). */
  rawBody(op: Operation): { type: string; text: string } | undefined;
}

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its WTF-8 bytes instead of throwing. */
export function encodeComponent(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A path parameter's value on the wire; `pagePath` keeps its slashes (it is a wildcard). */
export function encodeParam(name: string, value: string): string {
  return name === 'pagePath' ? value.split('/').map(encodeComponent).join('/') : encodeComponent(value);
}

/** Query-string text of a schema value: scalars as text, arrays as repeated keys, objects as JSON. */
export function queryPairs(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => queryPairs(name, v));
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return [`${encodeComponent(name)}=${encodeComponent(text)}`];
}

/** A request before encoding: encoded path parameters, encoded query pairs, the body as a value. */
export interface Parts {
  params: Record<string, string>;
  query: string[];
  body: unknown;
}

/** The path template filled in, with the query. */
export function pathOf(op: Operation, params: Record<string, string>, query: string[]): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]!);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** A request whose body (if any) is the JSON of `p.body`. */
export function jsonRequest(op: Operation, mutation: string, p: Parts, extra: Partial<FuzzRequest> = {}): FuzzRequest {
  const hasBody = p.body !== undefined;
  return {
    operationId: op.operationId,
    mutation,
    method: op.method,
    path: pathOf(op, p.params, p.query),
    headers: hasBody ? { 'content-type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(p.body) : undefined,
    ...extra,
  };
}
