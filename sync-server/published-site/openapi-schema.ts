import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { descriptionHast } from './openapi-description';
import { deref, refName, type Json, type JsonObject } from './openapi-model';

/**
 * A JSON schema (of a request body, a response, a parameter) as a readable tree for the published
 * site: one row per property with its name, type (format, `[]` for arrays, the component's name),
 * required mark, description, enum values, default and bounds; nested objects and arrays behind a
 * `<details>` (collapsible without JavaScript, under the site's CSP). allOf parts are merged into
 * one object; oneOf / anyOf show their variants. A `$ref` already open above a node is not followed
 * again (a recursive schema shows "circular"); depth and the number of rows are bounded, so a
 * large spec costs bounded work and HTML.
 */

const MAX_DEPTH = 10;
const MAX_ROWS = 1_500;

interface Walk {
  root: JsonObject;
  rows: number;
  /** `$ref`s open on the path to the current node. */
  open: Set<string>;
  truncated: boolean;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema a node is, with its `$ref` name, or undefined. `cycle` when the ref is open above. */
function resolve(w: Walk, raw: Json | undefined): { schema?: JsonObject; ref?: string; cycle?: boolean } {
  if (isObject(raw) && typeof raw.$ref === 'string') {
    const ref = raw.$ref;
    if (w.open.has(ref)) return { ref, cycle: true };
    return { schema: deref(w.root, raw), ref };
  }
  return { schema: isObject(raw) ? raw : undefined };
}

/** allOf parts merged (properties, required, type, description), other keys of `schema` kept. */
function merged(w: Walk, schema: JsonObject): JsonObject {
  if (!Array.isArray(schema.allOf)) return schema;
  const out: JsonObject = { ...schema };
  delete out.allOf;
  const properties: JsonObject = {};
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required.map(String) : []);
  if (isObject(schema.properties)) Object.assign(properties, schema.properties);
  for (const part of schema.allOf) {
    const r = resolve(w, part);
    if (!r.schema) continue;
    // A part that includes itself (allOf through a $ref back to it) is merged once.
    if (r.ref) w.open.add(r.ref);
    try {
      const p = merged(w, r.schema);
      if (isObject(p.properties)) Object.assign(properties, p.properties);
      if (Array.isArray(p.required)) for (const n of p.required) required.add(String(n));
      for (const key of ['type', 'description', 'title', 'items', 'oneOf', 'anyOf', 'enum', 'format'])
        if (out[key] === undefined && p[key] !== undefined) out[key] = p[key];
    } finally {
      if (r.ref) w.open.delete(r.ref);
    }
  }
  if (Object.keys(properties).length) out.properties = properties;
  if (required.size) out.required = [...required];
  return out;
}

/** `string · date-time`, `Pet[]`, `object · Pet`, `integer | null`… */
export function typeLabel(root: JsonObject, raw: Json | undefined, depth = 0): string {
  const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref : undefined;
  const schema = deref(root, raw);
  if (!schema) return ref ? refName(ref) : 'any';
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const main = types.filter((t) => t !== 'null');
  let base: string;
  if (main.includes('array') || (main.length === 0 && schema.items !== undefined))
    base = depth < 4 ? `${typeLabel(root, schema.items, depth + 1)}[]` : 'array';
  else if (main.length) base = main.join(' | ');
  else if (schema.properties || schema.allOf) base = 'object';
  else if (schema.oneOf) base = 'one of';
  else if (schema.anyOf) base = 'any of';
  else base = 'any';
  if (ref && (base === 'object' || base === 'one of' || base === 'any of')) base = `${base} · ${refName(ref)}`;
  if (typeof schema.format === 'string') base += ` · ${schema.format}`;
  if (types.includes('null') || schema.nullable === true) base += ' | null';
  return base;
}

const code = (value: Json) => h('code', typeof value === 'string' ? value : JSON.stringify(value));

/** Enum, default, bounds, pattern, example of a schema: the facts a reader needs beside its type. */
function facts(schema: JsonObject): ElementContent[] {
  const out: ElementContent[] = [];
  const line = (label: string, ...values: ElementContent[]) =>
    out.push(h('p.oa-fact', [h('span.oa-fact-label', `${label}: `), ...values]));
  if (Array.isArray(schema.enum) && schema.enum.length)
    line(
      'Possible values',
      ...schema.enum.slice(0, 50).flatMap((v, i) => (i ? [{ type: 'text', value: ' ' } as const, code(v)] : [code(v)])),
    );
  if (schema.const !== undefined) line('Value', code(schema.const));
  if (schema.default !== undefined) line('Default', code(schema.default));
  const bounds: string[] = [];
  if (typeof schema.minimum === 'number') bounds.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') bounds.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') bounds.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') bounds.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.minLength === 'number') bounds.push(`min length ${schema.minLength}`);
  if (typeof schema.maxLength === 'number') bounds.push(`max length ${schema.maxLength}`);
  if (typeof schema.minItems === 'number') bounds.push(`min items ${schema.minItems}`);
  if (typeof schema.maxItems === 'number') bounds.push(`max items ${schema.maxItems}`);
  if (bounds.length) line('Constraints', { type: 'text', value: bounds.join(', ') });
  if (typeof schema.pattern === 'string') line('Pattern', code(schema.pattern));
  if (schema.example !== undefined && !isObject(schema.example) && !Array.isArray(schema.example))
    line('Example', code(schema.example));
  return out;
}

/** The rows under a schema: its properties (of its items for an array), or its variants. */
function children(w: Walk, raw: Json | undefined, depth: number): ElementContent[] {
  const r = resolve(w, raw);
  if (!r.schema || r.cycle) return [];
  if (r.ref) w.open.add(r.ref);
  try {
    const schema = merged(w, r.schema);
    if (schema.items !== undefined && !schema.properties) return children(w, schema.items, depth);
    const rows: ElementContent[] = [];
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    if (isObject(schema.properties))
      for (const [name, prop] of Object.entries(schema.properties))
        rows.push(...row(w, name, prop, required.has(name), depth));
    if (isObject(schema.additionalProperties))
      rows.push(...row(w, '[key: string]', schema.additionalProperties, false, depth));
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const variants = schema[kind];
      if (!Array.isArray(variants) || variants.length === 0) continue;
      const label = kind === 'oneOf' ? 'One of' : 'Any of';
      const items = variants.flatMap((v, i) => {
        const name = (deref(w.root, v)?.title as string | undefined) ?? `Option ${i + 1}`;
        return row(w, name, v, false, depth, true);
      });
      rows.push(h('li.oa-variants', [h('p.oa-variants-label', label), h('ul.oa-fields', items)]));
    }
    return rows;
  } finally {
    if (r.ref) w.open.delete(r.ref);
  }
}

/** One property row: head (name, type, required), description, facts, and its nested rows. */
function row(w: Walk, name: string, raw: Json, required: boolean, depth: number, variant = false): ElementContent[] {
  if (w.rows >= MAX_ROWS) {
    w.truncated = true;
    return [];
  }
  w.rows++;
  const r = resolve(w, raw);
  const schema = r.schema ? merged(w, r.schema) : undefined;
  const head = h('div.oa-field-head', [
    h(variant ? 'span.oa-field-name.oa-variant-name' : 'code.oa-field-name', name),
    h('span.oa-field-type', typeLabel(w.root, r.cycle ? raw : schema ? { ...schema } : raw)),
    ...(required ? [h('span.oa-required', 'required')] : []),
    ...(schema?.deprecated === true ? [h('span.oa-deprecated', 'deprecated')] : []),
    ...(schema?.readOnly === true ? [h('span.oa-flag', 'read-only')] : []),
    ...(schema?.writeOnly === true ? [h('span.oa-flag', 'write-only')] : []),
  ]);
  const body: ElementContent[] = [head];
  // The schema, or the items of an array, is one already open above: said, not drawn again.
  const items = schema?.items;
  const itemsRef = isObject(items) && typeof items.$ref === 'string' && w.open.has(items.$ref) ? items.$ref : undefined;
  const cycle = r.cycle ? r.ref : itemsRef;
  if (cycle) body.push(h('p.oa-fact', `Circular reference to ${refName(cycle)}`));
  if (typeof schema?.description === 'string') body.push(h('div.oa-field-desc', descriptionHast(schema.description)));
  if (schema) body.push(...facts(schema));
  const nested = depth < MAX_DEPTH && !r.cycle ? children(w, raw, depth + 1) : [];
  if (nested.length)
    body.push(
      h('details.oa-nested', [
        h('summary', variant ? 'Show properties' : 'Show child attributes'),
        h('ul.oa-fields', nested),
      ]),
    );
  return [h('li.oa-field', body)];
}

/** The tree of a schema: its rows, or one row for a schema without properties (a string body, say). */
export function schemaTree(root: JsonObject, schema: Json | undefined): ElementContent {
  const w: Walk = { root, rows: 0, open: new Set(), truncated: false };
  const rows = children(w, schema, 0);
  const list = rows.length ? rows : row(w, typeLabel(root, schema), schema ?? {}, false, 0, true);
  const top: ElementContent[] = [];
  const resolved = deref(root, schema);
  const isArray = resolved && (resolved.type === 'array' || (resolved.items !== undefined && !resolved.properties));
  if (rows.length && isArray) top.push(h('p.oa-fact', [h('span.oa-fact-label', 'Type: '), typeLabel(root, schema)]));
  top.push(h('ul.oa-fields.oa-root', list));
  if (w.truncated) top.push(h('p.oa-fact', 'Too many fields to show them all here.'));
  return h('div.oa-schema', top);
}
