/**
 * The configuration form of an integration, as pure logic: GitBook's IntegrationConfigurationSchema
 * (a JSON Schema object whose `properties` are of type string, number, boolean or button, with
 * `title`, `description`, `default`, string `enum`, and a `required` list) becomes a list of fields;
 * the values typed into them are checked the way the server checks them
 * (sync-server/api/integration-installations/configuration.ts), so most mistakes are named before
 * anything is sent; and the server's own refusal is split back onto the fields it names.
 *
 * Form values are what the controls hold (text for text and number inputs, booleans for checkboxes);
 * `toConfiguration` turns them into the JSON the API takes.
 */

/** One property of a schema, as the manifest declares it. */
export interface PropertySchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  completion_url?: string;
  callback_url?: string;
  button_text?: string;
}

/** A scope's configuration: a schema, or a component of the integration's own UI. */
export interface ConfigurationSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: string[];
  componentId?: string;
}

/** The kind of control a field is drawn with. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'select' | 'button';

/** One field of the form. */
export interface FormField {
  name: string;
  kind: FieldKind;
  /** The caption: the property's title, else its name. */
  label: string;
  description?: string;
  required: boolean;
  /** The choices of a `select` (a string with an `enum`). */
  options: string[];
  /** A button's caption and where it leads (the integration handles it). */
  buttonText?: string;
  /** Where the integration suggests values (shown as a hint: the script runtime answers it). */
  completionUrl?: string;
}

/** What the form's controls hold, by property name. */
export type FormValues = Record<string, string | boolean>;

/** Errors by property name; `''` holds what applies to no one field. */
export type FormErrors = Record<string, string>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the integration configures this scope through a UI of its own (nothing to draw here). */
export function usesComponent(schema: ConfigurationSchema | undefined): boolean {
  return typeof schema?.componentId === 'string';
}

function kindOf(property: PropertySchema): FieldKind | undefined {
  switch (property.type) {
    case 'string':
      return Array.isArray(property.enum) && property.enum.length > 0 ? 'select' : 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'button':
      return 'button';
    default:
      // A type this version does not know: left out rather than drawn wrong.
      return undefined;
  }
}

/** The fields of a schema, in the order it declares them (none for a component or no schema). */
export function fieldsOf(schema: ConfigurationSchema | undefined): FormField[] {
  if (!schema || usesComponent(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields: FormField[] = [];
  for (const [name, declared] of Object.entries(schema.properties as Record<string, unknown>)) {
    if (!isObject(declared)) continue;
    const property = declared as PropertySchema;
    const kind = kindOf(property);
    if (!kind) continue;
    fields.push({
      name,
      kind,
      label: typeof property.title === 'string' && property.title ? property.title : name,
      ...(typeof property.description === 'string' && property.description
        ? { description: property.description }
        : {}),
      required: required.has(name) && kind !== 'button',
      options: kind === 'select' ? (property.enum ?? []).filter((o): o is string => typeof o === 'string') : [],
      ...(kind === 'button' ? { buttonText: String(property.button_text ?? property.title ?? name) } : {}),
      ...(typeof property.completion_url === 'string' ? { completionUrl: property.completion_url } : {}),
    });
  }
  return fields;
}

/** The control value of one field for a stored value (undefined: nothing stored). */
function controlValue(field: FormField, value: unknown): string | boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (field.kind === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (field.kind === 'number') return typeof value === 'number' ? String(value) : undefined;
  if (field.kind === 'text' || field.kind === 'select') return typeof value === 'string' ? value : undefined;
  return undefined;
}

/**
 * The form's starting values: the stored configuration where it has a value, the schema's
 * `default` where not, else empty (unchecked for a boolean, no choice for a select).
 */
export function initialValues(
  schema: ConfigurationSchema | undefined,
  stored: Record<string, unknown> = {},
): FormValues {
  const values: FormValues = {};
  const properties = isObject(schema?.properties) ? schema.properties : {};
  for (const field of fieldsOf(schema)) {
    if (field.kind === 'button') continue;
    const own = Object.hasOwn(stored, field.name) ? stored[field.name] : undefined;
    values[field.name] =
      controlValue(field, own) ??
      controlValue(field, properties[field.name]?.default) ??
      (field.kind === 'boolean' ? false : '');
  }
  return values;
}

/** Whether a field holds a value (an empty text or choice does not; a boolean always does). */
function hasValue(field: FormField, value: string | boolean | undefined): boolean {
  if (field.kind === 'boolean') return typeof value === 'boolean';
  return typeof value === 'string' && value.trim() !== '';
}

/** What is wrong with the values, by field (empty when nothing is). */
export function validate(fields: readonly FormField[], values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'button') continue;
    if (!hasValue(field, value)) {
      if (field.required) errors[field.name] = `${field.label} is required.`;
      continue;
    }
    if (field.kind === 'number' && !Number.isFinite(Number(String(value).trim())))
      errors[field.name] = `${field.label} must be a number.`;
    if (field.kind === 'select' && !field.options.includes(String(value)))
      errors[field.name] = `${field.label} must be one of: ${field.options.join(', ')}.`;
  }
  return errors;
}

/**
 * The configuration to send: every field with a value, typed (numbers as numbers); an emptied field
 * is `null`, which the API reads as "unset" (its default comes back). Keys the schema does not
 * declare are kept from `stored`: integrations keep their own state there, and a PATCH replaces the
 * whole configuration.
 */
export function toConfiguration(
  fields: readonly FormField[],
  values: FormValues,
  stored: Record<string, unknown> = {},
): Record<string, unknown> {
  const declared = new Set(fields.map((f) => f.name));
  const configuration: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) if (!declared.has(key)) configuration[key] = value;
  for (const field of fields) {
    if (field.kind === 'button') continue;
    const value = values[field.name];
    if (!hasValue(field, value)) configuration[field.name] = null;
    else if (field.kind === 'boolean') configuration[field.name] = value;
    else if (field.kind === 'number') configuration[field.name] = Number(String(value).trim());
    else configuration[field.name] = String(value);
  }
  return configuration;
}

/**
 * The server's refusal ("Invalid account configuration: "port" must be a number; required property
 * "token" missing") split onto the fields it names; what names no field stays under `''`.
 */
export function serverErrors(fields: readonly FormField[], message: string): FormErrors {
  const errors: FormErrors = {};
  const body = message.replace(/^Invalid \w+ configuration:\s*/, '');
  const rest: string[] = [];
  for (const part of body.split(/;\s*/)) {
    const named = fields.filter((f) => part.includes(JSON.stringify(f.name)));
    if (named.length === 0) {
      rest.push(part);
      continue;
    }
    for (const field of named) {
      const text = /required propert/.test(part)
        ? `${field.label} is required.`
        : part.replace(JSON.stringify(field.name), field.label);
      errors[field.name] = errors[field.name] ? `${errors[field.name]} ${text}` : text;
    }
  }
  if (rest.length > 0 && rest.join('').trim()) errors[''] = Object.keys(errors).length ? rest.join('; ') : message;
  return errors;
}
