import { describe, expect, it } from 'vitest';
import {
  fieldsOf,
  initialValues,
  serverErrors,
  toConfiguration,
  usesComponent,
  validate,
  type ConfigurationSchema,
} from '../../renderer/src/integrations/configuration-form-model';

/** An account schema with every kind of property GitBook's IntegrationConfigurationSchema has. */
const SCHEMA: ConfigurationSchema = {
  type: 'object',
  properties: {
    token: { type: 'string', title: 'API token', description: 'From your dashboard' },
    region: { type: 'string', title: 'Region', enum: ['eu', 'us'], default: 'eu' },
    port: { type: 'number', title: 'Port', default: 443 },
    verbose: { type: 'boolean', title: 'Verbose logs' },
    connect: { type: 'button', title: 'Connect', button_text: 'Connect account', callback_url: '/oauth' },
    odd: { type: 'date' },
  },
  required: ['token', 'region'],
};

describe('the configuration form model', () => {
  it('turns the schema into fields in its order, with labels, kinds, options and required marks', () => {
    const fields = fieldsOf(SCHEMA);
    expect(fields.map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ['token', 'text', 'API token', true],
      ['region', 'select', 'Region', true],
      ['port', 'number', 'Port', false],
      ['verbose', 'boolean', 'Verbose logs', false],
      ['connect', 'button', 'Connect', false],
    ]);
    expect(fields[0]!.description).toBe('From your dashboard');
    expect(fields[1]!.options).toEqual(['eu', 'us']);
    expect(fields[4]!.buttonText).toBe('Connect account');
  });

  it('has no fields for a component-configured scope or no schema', () => {
    expect(fieldsOf({ componentId: 'config' })).toEqual([]);
    expect(usesComponent({ componentId: 'config' })).toBe(true);
    expect(fieldsOf(undefined)).toEqual([]);
    expect(fieldsOf({ properties: {} })).toEqual([]);
  });

  it('starts from the stored values, then the defaults, then empty', () => {
    expect(initialValues(SCHEMA)).toEqual({ token: '', region: 'eu', port: '443', verbose: false });
    expect(initialValues(SCHEMA, { token: 'abc', port: 8080, verbose: true, region: 'us' })).toEqual({
      token: 'abc',
      region: 'us',
      port: '8080',
      verbose: true,
    });
    // A stored value of the wrong type is not shown as if it were right: the default is.
    expect(initialValues(SCHEMA, { port: 'eighty' }).port).toBe('443');
  });

  it('names what is missing or malformed, field by field', () => {
    const fields = fieldsOf(SCHEMA);
    expect(validate(fields, { token: '  ', region: '', port: 'abc', verbose: false })).toEqual({
      token: 'API token is required.',
      region: 'Region is required.',
      port: 'Port must be a number.',
    });
    expect(validate(fields, { token: 't', region: 'mars', port: '', verbose: false })).toEqual({
      region: 'Region must be one of: eu, us.',
    });
    expect(validate(fields, { token: 't', region: 'us', port: '8080', verbose: true })).toEqual({});
  });

  it('sends typed values, null for emptied ones, and keeps the integration’s own keys', () => {
    const fields = fieldsOf(SCHEMA);
    expect(
      toConfiguration(
        fields,
        { token: ' t ', region: 'us', port: ' 8080 ', verbose: true },
        { oauth: { a: 1 }, token: 'old' },
      ),
    ).toEqual({ oauth: { a: 1 }, token: ' t ', region: 'us', port: 8080, verbose: true });
    expect(toConfiguration(fields, { token: 't', region: 'eu', port: '', verbose: false })).toEqual({
      token: 't',
      region: 'eu',
      port: null,
      verbose: false,
    });
  });

  it('splits the server’s refusal onto the fields it names', () => {
    const fields = fieldsOf(SCHEMA);
    expect(
      serverErrors(fields, 'Invalid account configuration: "port" must be a number; required property "token" missing'),
    ).toEqual({ port: 'Port must be a number', token: 'API token is required.' });
    expect(serverErrors(fields, 'required properties "token", "region" missing')).toEqual({
      token: 'API token is required.',
      region: 'Region is required.',
    });
    expect(serverErrors(fields, 'The account configuration is larger than 64 KiB')).toEqual({
      '': 'The account configuration is larger than 64 KiB',
    });
  });
});
