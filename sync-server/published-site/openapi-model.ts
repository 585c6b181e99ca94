/**
 * One operation of a processed spec (the version's bundle: external `$ref`s already made internal
 * by the processing, see sync-server/openapi-specs/parse-worker.mjs) in one shape for Swagger 2.0,
 * OpenAPI 3.0 and 3.1, for the published site's API reference blocks. Local `$ref`s are followed
 * lazily where read (never expanded in place: a recursive schema would never end); schema trees
 * cut cycles themselves (openapi-schema.ts).
 */

import type { Json, JsonObject } from '../openapi-specs/bundles';

export type { Json, JsonObject };

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema?: JsonObject;
  example?: Json;
}

export interface MediaModel {
  type: string;
  schema?: JsonObject;
  /** An example the spec gives (example, or the first of examples). */
  example?: Json;
}

export interface ResponseModel {
  status: string;
  description?: string;
  content: MediaModel[];
  headers: ParameterModel[];
}

export interface SecurityModel {
  /** What a request sends: a header (name and placeholder value), or a query parameter. */
  in: 'header' | 'query' | 'cookie';
  name: string;
  value: string;
  label: string;
}

export interface OperationModel {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  servers: { url: string; description?: string }[];
  parameters: ParameterModel[];
  requestBody?: { description?: string; required: boolean; content: MediaModel[] };
  responses: ResponseModel[];
  security: SecurityModel[];
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value a local JSON pointer (`#/a/b`) names in `root`. */
function pointer(root: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#')) return undefined;
  let at: Json | undefined = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isObject(at)) at = Object.prototype.hasOwnProperty.call(at, key) ? at[key] : undefined;
    else return undefined;
  }
  return at;
}

/** Follows `$ref` chains (bounded) to the object they name; the object itself when it is no reference. */
export function deref(root: JsonObject, value: Json | undefined): JsonObject | undefined {
  let at = value;
  for (let hops = 0; hops < 32 && isObject(at) && typeof at.$ref === 'string'; hops++) at = pointer(root, at.$ref);
  return isObject(at) && typeof at.$ref !== 'string' ? at : undefined;
}

/** The readable name a `$ref` gives (its last segment), for trees and cycle notes. */
export function refName(ref: string): string {
  return decodeURIComponent(ref.split('/').pop() ?? ref);
}

const str = (v: Json | undefined): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function firstExample(media: JsonObject, root: JsonObject): Json | undefined {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    for (const e of Object.values(media.examples)) {
      const ex = deref(root, e);
      if (ex && ex.value !== undefined) return ex.value;
    }
  }
  return undefined;
}

function parameterOf(raw: Json, root: JsonObject, swagger: boolean): ParameterModel | undefined {
  const p = deref(root, raw);
  const where = p?.in;
  if (!p || typeof p.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(String(where)))
    return undefined;
  // Swagger 2.0 puts the type on the parameter itself.
  const schema = isObject(p.schema)
    ? p.schema
    : swagger
      ? Object.fromEntries(Object.entries(p).filter(([k]) => !['name', 'in', 'required', 'description'].includes(k)))
      : undefined;
  return {
    name: p.name,
    in: where as ParameterModel['in'],
    required: p.required === true || where === 'path',
    deprecated: p.deprecated === true,
    description: str(p.description),
    schema,
    example: p.example ?? (isObject(p.examples) ? deref(root, Object.values(p.examples)[0])?.value : undefined),
  };
}

function contentOf(content: Json | undefined, root: JsonObject): MediaModel[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([type, raw]) => {
    const media = deref(root, raw) ?? {};
    return { type, schema: isObject(media.schema) ? media.schema : undefined, example: firstExample(media, root) };
  });
}

function serversOf(doc: JsonObject, pathItem: JsonObject, op: JsonObject): OperationModel['servers'] {
  if (typeof doc.swagger === 'string') {
    const host = str(doc.host);
    if (!host) return [];
    const schemes = Array.isArray(doc.schemes) && doc.schemes.length ? doc.schemes.map(String) : ['https'];
    return [{ url: `${schemes[0]}://${host}${str(doc.basePath) ?? ''}`.replace(/\/$/, '') }];
  }
  const list = [op.servers, pathItem.servers, doc.servers].find((s) => Array.isArray(s) && s.length > 0);
  return ((list as Json[] | undefined) ?? []).filter(isObject).flatMap((s) => {
    if (typeof s.url !== 'string') return [];
    // Variables take their defaults: the sample must be a URL one can run.
    const vars = isObject(s.variables) ? s.variables : {};
    const url = s.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const v = vars[name];
      return isObject(v) && v.default !== undefined ? String(v.default) : whole;
    });
    return [{ url, description: str(s.description) }];
  });
}

function securityOf(doc: JsonObject, op: JsonObject, root: JsonObject): SecurityModel[] {
  const requirements = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  const first = requirements.find(isObject);
  if (!first) return [];
  const schemes = deref(root, isObject(doc.components) ? doc.components.securitySchemes : doc.securityDefinitions);
  return Object.keys(first).flatMap((name): SecurityModel[] => {
    const s = schemes && deref(root, schemes[name]);
    if (!s) return [];
    const type = String(s.type);
    const scheme = String(s.scheme ?? '').toLowerCase();
    if (type === 'apiKey' && typeof s.name === 'string' && ['header', 'query', 'cookie'].includes(String(s.in)))
      return [{ in: s.in as SecurityModel['in'], name: s.name, value: 'YOUR_API_KEY', label: name }];
    if (type === 'http' && scheme === 'basic')
      return [{ in: 'header', name: 'Authorization', value: 'Basic <credentials>', label: name }];
    if ((type === 'http' && scheme === 'bearer') || type === 'oauth2' || type === 'openIdConnect')
      return [{ in: 'header', name: 'Authorization', value: 'Bearer YOUR_TOKEN', label: name }];
    if (type === 'basic') return [{ in: 'header', name: 'Authorization', value: 'Basic <credentials>', label: name }];
    return [];
  });
}

/** Swagger 2.0's body and form parameters as an OpenAPI 3 request body. */
function swaggerBody(params: JsonObject[], op: JsonObject, doc: JsonObject): OperationModel['requestBody'] {
  const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(doc.consumes) ? doc.consumes : []).map(
    String,
  );
  const body = params.find((p) => p.in === 'body');
  if (body) {
    return {
      description: str(body.description),
      required: body.required === true,
      content: [{ type: consumes[0] ?? 'application/json', schema: isObject(body.schema) ? body.schema : undefined }],
    };
  }
  const form = params.filter((p) => p.in === 'formData' && typeof p.name === 'string');
  if (form.length === 0) return undefined;
  const properties: JsonObject = {};
  for (const p of form) {
    const { name, in: _in, required: _r, ...schema } = p;
    properties[String(name)] = schema;
  }
  const required = form.filter((p) => p.required === true).map((p) => String(p.name));
  const type = consumes.find((c) => /form/.test(c)) ?? 'application/x-www-form-urlencoded';
  return { required: required.length > 0, content: [{ type, schema: { type: 'object', properties, required } }] };
}

/** The operation at `path` and `method` of a bundled spec, or undefined when the spec has none. */
export function operationModel(doc: JsonObject, path: string, method: string): OperationModel | undefined {
  const paths = isObject(doc.paths) ? doc.paths : undefined;
  const pathItem = paths && deref(doc, paths[path]);
  const op = pathItem && METHODS.includes(method) ? deref(doc, pathItem[method]) : undefined;
  if (!pathItem || !op) return undefined;
  const swagger = typeof doc.swagger === 'string';
  // Operation parameters override the path item's of the same name and place.
  const rawParams = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ]
    .map((p) => deref(doc, p))
    .filter(isObject);
  const byKey = new Map<string, JsonObject>();
  for (const p of rawParams) byKey.set(`${String(p.in)}\n${String(p.name)}`, p);
  const params = [...byKey.values()];
  const parameters = params.flatMap((p) => parameterOf(p, doc, swagger) ?? []);
  const requestBody = swagger
    ? swaggerBody(params, op, doc)
    : (() => {
        const body = deref(doc, op.requestBody);
        return body
          ? {
              description: str(body.description),
              required: body.required === true,
              content: contentOf(body.content, doc),
            }
          : undefined;
      })();
  const produces = (Array.isArray(op.produces) ? op.produces : Array.isArray(doc.produces) ? doc.produces : []).map(
    String,
  );
  const responses = Object.entries(isObject(op.responses) ? op.responses : {}).flatMap(
    ([status, raw]): ResponseModel[] => {
      const r = deref(doc, raw);
      if (!r) return [];
      const content = swagger
        ? isObject(r.schema)
          ? [{ type: produces[0] ?? 'application/json', schema: r.schema, example: firstSwaggerExample(r) }]
          : []
        : contentOf(r.content, doc);
      const headers = Object.entries(isObject(r.headers) ? r.headers : {}).flatMap(([name, h]) => {
        const header = parameterOf({ ...(deref(doc, h) ?? {}), name, in: 'header' }, doc, swagger);
        return header ? [{ ...header, required: false }] : [];
      });
      return [{ status, description: str(r.description), content, headers }];
    },
  );
  return {
    method,
    path,
    summary: str(op.summary),
    description: str(op.description),
    deprecated: op.deprecated === true,
    servers: serversOf(doc, pathItem, op),
    parameters,
    requestBody,
    responses,
    security: securityOf(doc, op, doc),
  };
}

function firstSwaggerExample(r: JsonObject): Json | undefined {
  return isObject(r.examples) ? Object.values(r.examples)[0] : undefined;
}
