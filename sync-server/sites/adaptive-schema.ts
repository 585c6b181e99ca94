import Ajv, { type ValidateFunction } from 'ajv';

/**
 * The visitor schema of adaptive content: a draft-07 JSON Schema describing
 * the claims a visitor token carries. PUT accepts only schemas that (1) are
 * valid draft-07 JSON Schemas (Ajv's draft-07 meta-schema, then compiled)
 * and (2) have the shape GitBook describes: an object without additional
 * properties whose claims are booleans, strings (optionally enums), numbers,
 * arrays of those, or nested objects, each with a description; `unsigned`
 * holds the claims visitors may pass unsigned in the URL. The REST API
 * stores them; published sites read claims through them.
 */

/** The only JSON Schema dialect accepted. */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** The schema of a site that never set one: no claims. */
export const EMPTY_VISITOR_SCHEMA = Object.freeze({
  type: 'object',
  properties: {
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: {},
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

/** GitBook's SiteAdaptiveJSONSchema, written as a draft-07 schema over schemas. */
const SHAPE = {
  definitions: {
    primitive: {
      oneOf: [
        {
          type: 'object',
          properties: { type: { const: 'boolean' }, description: { type: 'string' } },
          required: ['type', 'description'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            type: { const: 'string' },
            enum: { type: 'array', items: { type: 'string' } },
            description: { type: 'string' },
          },
          required: ['type', 'description'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { type: { const: 'number' }, description: { type: 'string' } },
          required: ['type', 'description'],
          additionalProperties: false,
        },
      ],
    },
    claim: {
      oneOf: [
        { $ref: '#/definitions/primitive' },
        {
          type: 'object',
          properties: {
            type: { const: 'array' },
            description: { type: 'string' },
            items: { $ref: '#/definitions/primitive' },
          },
          required: ['type', 'description', 'items'],
          additionalProperties: false,
        },
        { $ref: '#/definitions/object' },
      ],
    },
    object: {
      type: 'object',
      properties: {
        type: { const: 'object' },
        description: { type: 'string' },
        properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
        additionalProperties: { const: false },
      },
      required: ['type', 'description', 'properties', 'additionalProperties'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    $schema: { const: DRAFT_07 },
    type: { const: 'object' },
    properties: {
      type: 'object',
      properties: { unsigned: { $ref: '#/definitions/object' } },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
    additionalProperties: { const: false },
  },
  required: ['type', 'properties', 'additionalProperties'],
  additionalProperties: false,
};

/**
 * The Ajv instance and the compiled SHAPE, built on the first schema checked: compiling at module
 * load cost every start ~60 ms for a request few servers ever see.
 */
let checker: { ajv: Ajv; checkShape: ValidateFunction } | undefined;
function shapeChecker(): { ajv: Ajv; checkShape: ValidateFunction } {
  if (!checker) {
    // Draft-07 is Ajv's default dialect; strict mode off so unknown keywords are judged by the meta-schema alone.
    const ajv = new Ajv({ strict: false, allErrors: false });
    checker = { ajv, checkShape: ajv.compile(SHAPE) };
  }
  return checker;
}

/**
 * Why a visitor schema is refused (the API answers 400 with this message),
 * or undefined when it is acceptable.
 */
export function visitorSchemaProblem(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    return 'Invalid jsonSchema: expected a JSON Schema object';
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && declared !== DRAFT_07)
    return `Invalid jsonSchema: "$schema" must be "${DRAFT_07}" (draft-07)`;
  const { ajv, checkShape } = shapeChecker();
  if (!ajv.validateSchema({ ...schema, $schema: DRAFT_07 }))
    return `Invalid jsonSchema: not a valid draft-07 JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'jsonSchema' })}`;
  if (!checkShape(schema))
    return `Invalid jsonSchema: ${ajv.errorsText(checkShape.errors, { dataVar: 'jsonSchema' })} (claims are booleans, strings, numbers, arrays or objects with a description)`;
  try {
    const { $schema: _dialect, ...body } = schema as Record<string, unknown>;
    ajv.compile(body);
  } catch (err) {
    return `Invalid jsonSchema: ${(err as Error).message}`;
  }
  return undefined;
}

type Claim = {
  type?: string;
  description?: string;
  enum?: string[];
  items?: Claim;
  properties?: Record<string, Claim>;
};

/** `visitor.claims.a.b`, with bracket notation for names that are not identifiers. */
function accessPath(path: string[]): string {
  return path
    .map((p) => (/^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
    .join('')
    .replace(/^/, 'visitor.claims');
}

/** Suggested conditions for a visitor schema: one per boolean claim and per enum value. */
export function templateConditions(schema: object): { description: string; condition: string }[] {
  const out: { description: string; condition: string }[] = [];
  const walk = (props: Record<string, Claim>, path: string[]) => {
    for (const [name, claim] of Object.entries(props)) {
      const at = [...path, name];
      const label = claim.description || at.join('.');
      if (claim.type === 'boolean')
        out.push({ description: `Visitors for whom "${label}" is true`, condition: `${accessPath(at)} == true` });
      else if (claim.type === 'string' && claim.enum) {
        for (const v of claim.enum)
          out.push({
            description: `Visitors whose "${label}" is "${v}"`,
            condition: `${accessPath(at)} == ${JSON.stringify(v)}`,
          });
      } else if (claim.type === 'array' && claim.items?.enum) {
        for (const v of claim.items.enum)
          out.push({
            description: `Visitors whose "${label}" include "${v}"`,
            condition: `${accessPath(at)}.includes(${JSON.stringify(v)})`,
          });
      } else if (claim.type === 'object' && claim.properties) walk(claim.properties, at);
    }
  };
  walk((schema as { properties?: Record<string, Claim> }).properties ?? {}, []);
  return out;
}

/**
 * Unsigned claims from a URL's `visitor.<name>=<value>` parameters, typed by
 * the schema's `unsigned` properties (booleans and numbers are converted;
 * values that do not fit, and names the schema does not declare, are dropped).
 */
export function unsignedClaims(schema: object | null, query: Record<string, unknown>): Record<string, unknown> {
  const declared = ((schema as { properties?: { unsigned?: Claim } } | null)?.properties?.unsigned?.properties ??
    {}) as Record<string, Claim>;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith('visitor.') || typeof raw !== 'string') continue;
    const name = key.slice('visitor.'.length);
    const claim = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!claim) continue;
    if (claim.type === 'boolean' && (raw === 'true' || raw === 'false')) out[name] = raw === 'true';
    else if (claim.type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) out[name] = Number(raw);
    else if (claim.type === 'string' && (!claim.enum || claim.enum.includes(raw))) out[name] = raw;
  }
  return out;
}
