import type { Json, JsonObject } from './bundles';

/**
 * The table of contents of a processed spec (Swagger 2.0, OpenAPI 3.0 and 3.1 alike): its info,
 * servers, tags in the spec's order with their operations in document order, and its named
 * schemas. What pages generated from a spec are laid out by (computed-content/).
 */

export interface OperationEntry {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  deprecated: boolean;
}

export interface TagEntry {
  /** The tag's name, as operations name it. */
  name: string;
  /** What readers see: `x-displayName`, else the name. */
  title: string;
  description?: string;
  operations: OperationEntry[];
}

export interface SpecOutline {
  title: string;
  version?: string;
  description?: string;
  servers: string[];
  tags: TagEntry[];
  /** Named schemas (`components.schemas`, or Swagger's `definitions`), in the spec's order. */
  schemas: { name: string; description?: string; schema: Json }[];
}

/** Where operations without a tag go (GitBook groups them the same way). */
export const UNTAGGED = 'Other';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: Json | undefined): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

function serversOf(doc: JsonObject): string[] {
  if (Array.isArray(doc.servers))
    return doc.servers.flatMap((s) => (isObject(s) && typeof s.url === 'string' ? [s.url] : []));
  // Swagger 2.0: scheme, host and base path.
  if (typeof doc.host === 'string') {
    const scheme = Array.isArray(doc.schemes) && typeof doc.schemes[0] === 'string' ? doc.schemes[0] : 'https';
    return [`${scheme}://${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`];
  }
  return [];
}

/** The outline of a bundled spec. */
export function specOutline(doc: JsonObject): SpecOutline {
  const info = isObject(doc.info) ? doc.info : {};
  const tags = new Map<string, TagEntry>();
  const tagOf = (name: string) => {
    let tag = tags.get(name);
    if (!tag) tags.set(name, (tag = { name, title: name, operations: [] }));
    return tag;
  };
  // Declared tags first, in the spec's order (an unused one gets no page).
  for (const t of Array.isArray(doc.tags) ? doc.tags : []) {
    if (!isObject(t) || !text(t.name)) continue;
    const tag = tagOf(text(t.name)!);
    tag.title = text(t['x-displayName']) ?? tag.name;
    const description = text(t.description);
    if (description) tag.description = description;
  }
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const name = (Array.isArray(op.tags) ? op.tags.map(text).find((t) => t !== undefined) : undefined) ?? UNTAGGED;
      const entry: OperationEntry = { method, path, deprecated: op.deprecated === true };
      const operationId = text(op.operationId);
      const summary = text(op.summary);
      if (operationId) entry.operationId = operationId;
      if (summary) entry.summary = summary;
      tagOf(name).operations.push(entry);
    }
  }
  const components = isObject(doc.components) ? doc.components : {};
  const named = isObject(components.schemas) ? components.schemas : isObject(doc.definitions) ? doc.definitions : {};
  const outline: SpecOutline = {
    title: text(info.title) ?? 'API reference',
    servers: serversOf(doc),
    tags: [...tags.values()].filter((t) => t.operations.length > 0),
    schemas: Object.entries(named).map(([name, schema]) => {
      const description = isObject(schema) ? text(schema.description) : undefined;
      return { name, schema, ...(description ? { description } : {}) };
    }),
  };
  const version = text(info.version);
  const description = text(info.description);
  if (version) outline.version = version;
  if (description) outline.description = description;
  return outline;
}
