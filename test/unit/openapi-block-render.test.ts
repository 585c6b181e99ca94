import { describe, expect, it } from 'vitest';
import { operationModel, type JsonObject } from '../../sync-server/published-site/openapi-model';
import { renderNotice, renderOperation } from '../../sync-server/published-site/openapi-render';
import { curlSample, shellQuote } from '../../sync-server/published-site/openapi-curl';
import { referenceSpec } from '../helpers/openapi-reference-spec';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

describe('API reference block rendering', () => {
  const doc = referenceSpec() as unknown as JsonObject;
  const op = operationModel(doc, '/pets/{petId}', 'put')!;
  const html = renderOperation(doc, op);

  it('reads the operation: path item parameters, servers, security, body and responses', () => {
    expect(op.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:petId:true',
      'query:dryRun:true',
      'header:X-Request-Id:false',
      'cookie:session:false',
    ]);
    expect(op.servers).toEqual([{ url: 'https://api.example.com/v1', description: 'Production' }]);
    expect(op.security).toEqual([{ in: 'header', name: 'Authorization', value: 'Bearer YOUR_TOKEN', label: 'bearer' }]);
    expect(op.responses.map((r) => r.status)).toEqual(['200', '404']);
    expect(operationModel(doc, '/pets', 'post')).toBeUndefined();
    expect(operationModel(doc, '/nope', 'get')).toBeUndefined();
  });

  it('draws the method, path, parameters by place and the schema tree', () => {
    expect(html).toContain('<span class="oa-method oa-method-put">PUT</span>');
    expect(html).toContain('<code class="oa-path">/pets/{petId}</code>');
    for (const title of [
      'Path parameters',
      'Query parameters',
      'Header parameters',
      'Cookie parameters',
      'Body (required)',
      'Responses',
    ])
      expect(html).toContain(`>${title}<`);
    // allOf merged: the Named part's property and the object's, required marks, enum, format.
    const t = text(html);
    expect(t).toMatch(/namestringrequired/);
    expect(t).toMatch(/kindstringrequired/);
    expect(t).toContain('Possible values: dog cat bird');
    expect(t).toContain('string · date');
    expect(t).toContain('string | null');
    expect(t).toContain('string[]');
    expect(t).toContain('One of');
    expect(html).toContain('<details class="oa-nested">');
    // The recursive `parent` is cut where it comes back.
    expect(t).toContain('Circular reference to Pet');
  });

  it('keeps description HTML but sanitized, and renders its markdown', () => {
    expect(html).toContain('<strong>Markdown</strong>');
    expect(html).toContain('<b>HTML too</b>');
    expect(html).not.toMatch(/<script|onerror|alert\(/);
  });

  it('shows the given example, else one generated from the schema', () => {
    const t = text(html);
    expect(t).toContain('"name": "Rex"');
    // The 404's example is generated from Error's schema.
    expect(t).toMatch(/"code": 0/);
  });

  it('writes a curl sample with the server, required query, auth header and body', () => {
    const curl = curlSample(op, { type: 'application/json', example: { name: 'Rex' } });
    expect(curl).toContain("--request PUT \\\n  --url 'https://api.example.com/v1/pets/{petId}?dryRun=false'");
    expect(curl).toContain("--header 'Authorization: Bearer YOUR_TOKEN'");
    expect(curl).toContain("--header 'Content-Type: application/json'");
    expect(curl).toContain('--data \'{\n  "name": "Rex"\n}\'');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(text(html)).toContain('curl -L');
  });

  it('reads Swagger 2.0: host and base path, body and form parameters', () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 'S', version: '1' },
      host: 'api.example.org',
      basePath: '/v2',
      schemes: ['https'],
      paths: {
        '/pets': {
          post: {
            parameters: [
              { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } },
              { name: 'limit', in: 'query', type: 'integer', format: 'int32' },
            ],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
          },
        },
      },
      definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    } as unknown as JsonObject;
    const s = operationModel(swagger, '/pets', 'post')!;
    expect(s.servers).toEqual([{ url: 'https://api.example.org/v2' }]);
    expect(s.requestBody?.content[0]?.type).toBe('application/json');
    expect(s.parameters).toMatchObject([{ name: 'limit', in: 'query', schema: { type: 'integer', format: 'int32' } }]);
    const out = renderOperation(swagger, s);
    expect(text(out)).toContain('integer · int32');
    expect(text(out)).toContain('"name": "string"');
  });

  it('escapes what a notice says', () => {
    expect(renderNotice('Spec not found', '<b>x</b>')).toContain('&#x3C;b>x&#x3C;/b>');
  });
});

describe('schema trees that refer to themselves', () => {
  it('merges an allOf that includes itself once, and cuts a cycle through arrays', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: {
        '/nodes': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
            responses: { '204': { description: 'Done' } },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            allOf: [{ $ref: '#/components/schemas/Node' }, { $ref: '#/components/schemas/Base' }],
            properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
          },
          Base: {
            type: 'object',
            properties: { id: { type: 'string', description: 'Plain text, see https://x.example' } },
          },
        },
      },
    } as unknown as JsonObject;
    const html = renderOperation(doc, operationModel(doc, '/nodes', 'post')!);
    expect(html).toContain('<code class="oa-field-name">children</code>');
    expect(html).toContain('<code class="oa-field-name">id</code>');
    expect(html).toContain('Circular reference to Node');
    // The bare URL in a description is a link (markdown's autolink).
    expect(html).toContain('<a href="https://x.example">');
    expect(html).toContain('<p class="oa-fact">No content.</p>');
  });
});
