import { badRequest } from '../../http/errors';

/**
 * Installation configurations against the integration's `configurations` (GitBook's
 * IntegrationConfigurationSchema: `properties` by name, each with a `type` of string, number,
 * boolean or button, an optional `default` and string `enum`, and a `required` list). Pure
 * functions over the manifest and the values; nothing here reads or writes.
 *
 * What is checked: the declared properties' types and enums, and that every required one has a
 * value. Keys the schema does not declare are kept as they are: integrations keep their own state
 * there (OAuth credentials, external ids), as GitBook's do. `null` unsets a declared property.
 */

export type ConfigurationScope = 'account' | 'space' | 'site';
export type InstallationStatus = 'active' | 'pending' | 'paused';
type Values = Record<string, unknown>;

interface PropertySchema {
  type?: unknown;
  enum?: unknown;
  default?: unknown;
}

/** A declared configuration: its properties and the names that must have a value. */
export interface ConfigurationSchema {
  properties: Record<string, PropertySchema>;
  required: string[];
}

/** The largest configuration kept (as JSON): it is sent with every event the integration receives. */
export const MAX_CONFIGURATION_BYTES = 64 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value of the map itself (a property named `constructor` is not Object's). */
const own = (values: Values, name: string): unknown => (Object.hasOwn(values, name) ? values[name] : undefined);

/** Sets a value of the map itself, whatever its name (`__proto__` included). */
const put = (map: object, name: string, value: unknown) =>
  Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true });

/**
 * The schema of one scope of a manifest's `configurations`; undefined when the integration
 * declares none, or configures that scope through its own UI component (`componentId`).
 */
export function configurationSchemaOf(
  manifest: { configurations?: unknown },
  scope: ConfigurationScope,
): ConfigurationSchema | undefined {
  const configurations = manifest.configurations;
  if (!isObject(configurations)) return undefined;
  const declared = configurations[scope];
  if (!isObject(declared) || !isObject(declared.properties)) return undefined;
  const properties: Record<string, PropertySchema> = {};
  for (const [name, property] of Object.entries(declared.properties))
    if (isObject(property)) put(properties, name, property);
  const required = Array.isArray(declared.required)
    ? declared.required.filter((r): r is string => typeof r === 'string')
    : [];
  return { properties, required };
}

/** The declared defaults: a new installation's configuration. */
export function defaultsOf(schema: ConfigurationSchema | undefined): Values {
  const values: Values = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {}))
    if (property.default !== undefined && property.type !== 'button') put(values, name, property.default);
  return values;
}

/** The required properties without a value. */
export function missingRequired(schema: ConfigurationSchema | undefined, values: Values): string[] {
  return (schema?.required ?? []).filter((name) => own(values, name) === undefined || own(values, name) === null);
}

/**
 * The status an installation shows: `pending` while a required property has no value (it waits
 * for its configuration), `active` otherwise; `paused` is kept once set.
 */
export function statusOf(
  schema: ConfigurationSchema | undefined,
  values: Values,
  stored?: string | null,
): InstallationStatus {
  if (stored === 'paused') return 'paused';
  return missingRequired(schema, values).length > 0 ? 'pending' : 'active';
}

const quoted = (names: readonly unknown[]) => names.map((n) => JSON.stringify(n)).join(', ');

/** What is wrong with one declared property's value, or undefined when it fits. */
function problemOf(name: string, property: PropertySchema, value: unknown): string | undefined {
  const q = JSON.stringify(name);
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return `${q} must be a string`;
      if (Array.isArray(property.enum) && property.enum.length > 0 && !property.enum.includes(value))
        return `${q} must be one of ${quoted(property.enum)}`;
      return undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `${q} must be a number`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${q} must be a boolean`;
    case 'button':
      return `${q} is a button, which holds no value`;
    default:
      return undefined;
  }
}

/**
 * A configuration given by a caller, checked against `schema` (400 naming every problem at once):
 * declared nulls removed, absent declared properties given their default. It replaces the
 * previous configuration as a whole, as in GitBook.
 */
export function checkedConfiguration(schema: ConfigurationSchema | undefined, given: Values, what: string): Values {
  const values: Values = { ...given };
  const problems: string[] = [];
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (own(values, name) === null) delete values[name];
    const value = own(values, name);
    if (value === undefined) {
      if (property.default !== undefined && property.type !== 'button') put(values, name, property.default);
      continue;
    }
    const problem = problemOf(name, property, value);
    if (problem) problems.push(problem);
  }
  const missing = missingRequired(schema, values);
  if (missing.length > 0)
    problems.push(`required ${missing.length === 1 ? 'property' : 'properties'} ${quoted(missing)} missing`);
  if (problems.length > 0) throw badRequest(`Invalid ${what} configuration: ${problems.join('; ')}`);
  if (Buffer.byteLength(JSON.stringify(values)) > MAX_CONFIGURATION_BYTES)
    throw badRequest(`The ${what} configuration is larger than ${MAX_CONFIGURATION_BYTES / 1024} KiB`);
  return values;
}
