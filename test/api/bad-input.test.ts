import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../helpers/server';
import { expectError, raw, type RawResponse } from '../helpers/api';
import { rawHttp } from '../helpers/raw-http';
import {
  CONNECTION_IDLE_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  REQUEST_TIMEOUT_MS,
} from '../../sync-server/http/limits';

/**
 * Input PostgreSQL cannot store or our code cannot walk, refused with a 400
 * naming the field before any route runs (never a 500): NUL bytes (U+0000,
 * which neither PostgreSQL text nor jsonb can hold) and lone surrogates
 * (not Unicode text) in bodies, query strings and path segments, and JSON
 * nested deeper than the parser allows. Router and HTTP-parser refusals
 * (undecodable %-escapes, over-long path segments, oversized request heads,
 * broken request lines) answer in the API's error shape too.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
let crId: string;
let siteId: string;
const admin = { token: TEST_ADMIN_TOKEN };

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Bad Input Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  crId = idOf(await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests`, { ...admin, body: { subject: 'x' } }));
  siteId = idOf(await raw(t, 'POST', `/v1/orgs/${orgId}/sites`, { ...admin, body: { title: 'Site' } }));
});
afterAll(async () => {
  await t?.close();
});

function idOf(res: RawResponse): string {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}
/** `[[[…]]]` nested `depth` deep. */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** A JSON schema whose `properties` nest `depth` objects deep. */
function nestedSchema(depth: number): string {
  let schema = '{"type":"string"}';
  for (let i = 0; i < depth; i++) schema = `{"type":"object","properties":{"a":${schema}}}`;
  return schema;
}

describe('NUL bytes', () => {
  it('are refused in body strings, naming the field, and nothing is stored', async () => {
    expectError(
      await raw(t, 'POST', '/v1/orgs', { ...admin, body: { title: 'a\u0000b' } }),
      400,
      /body: title must not contain NUL/,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { ...admin, body: { title: 'a\u0000b' } }),
      400,
      /body: title must not contain NUL/,
    );
    expect((await t.client.spaces.getSpaceById(spaceId)).data.title).toBe('Docs');
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests`, { ...admin, body: { subject: 'a\u0000b' } }),
      400,
      /body: subject must not contain NUL/,
    );
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
        ...admin,
        rawBody: '{"status":"approved","comment":{"object":"document","nodes":[{"text":"a\\u0000b"}]}}',
      }),
      400,
      /body: comment\/nodes\/0\/text must not contain NUL/,
    );
    // In a property name too.
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { ...admin, rawBody: '{"ti\\u0000tle":"x"}' }),
      400,
      /property name ti\\u0000tle must not contain NUL/,
    );
  });

  it('are refused in query strings', async () => {
    for (const path of [`/v1/spaces/${spaceId}/search`, `/v1/orgs/${orgId}/search`])
      expectError(await raw(t, 'GET', `${path}?query=a%00b`, admin), 400, /querystring: query must not contain NUL/);
  });

  it('are refused in path segments, API and published sites alike', async () => {
    expectError(
      await raw(t, 'GET', '/v1/email-domains/a%00b.com/orgs', admin),
      400,
      /params: emailDomain must not contain NUL/,
    );
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/content/path/a%00b`, admin), 400, /NUL/);
    expectError(await raw(t, 'GET', '/sites/a%00b/'), 400, /params: siteId must not contain NUL/);
  });
});

describe('lone surrogates', () => {
  it('are refused in a review comment (jsonb cannot hold them) and in titles (never silently replaced)', async () => {
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
        ...admin,
        rawBody: '{"status":"approved","comment":{"object":"document","nodes":[{"text":"a\\ud800b"}]}}',
      }),
      400,
      /body: comment\/nodes\/0\/text .*unpaired surrogate/,
    );
    expectError(
      await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { ...admin, rawBody: '{"title":"a\\udc00b"}' }),
      400,
      /body: title .*unpaired surrogate/,
    );
    expect((await t.client.spaces.getSpaceById(spaceId)).data.title).toBe('Docs');
  });

  it('leave well-formed text alone: emoji (surrogate pairs), escapes, other control characters', async () => {
    const title = '📘 Doc\\u00e9 \\ud83d\\ude80 tab\\tend';
    const res = await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { ...admin, rawBody: `{"title":"${title}"}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as { title: string }).title).toBe('📘 Docé 🚀 tab\tend');
    await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { ...admin, body: { title: 'Docs' } });
    const search = await raw(t, 'GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent('📘 docé')}`, admin);
    expect(search.status).toBe(200);
  });
});

describe('deeply nested JSON', () => {
  for (const depth of [2_000, 15_000]) {
    it(`is refused at ${depth} levels in a review comment and in the adaptive schema`, async () => {
      expectError(
        await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
          ...admin,
          rawBody: `{"status":"approved","comment":{"object":"document","nodes":${nestedArrays(depth)}}}`,
        }),
        400,
        /nested deeper than \d+ levels/,
      );
      expectError(
        await raw(t, 'PUT', `/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`, {
          ...admin,
          rawBody: `{"jsonSchema":${nestedSchema(depth)}}`,
        }),
        400,
        /nested deeper than \d+ levels/,
      );
    });
  }

  it('is accepted within the limit, and brackets inside strings do not count', async () => {
    const inString = JSON.stringify('['.repeat(10_000) + '{"\\'.repeat(1_000));
    const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, {
      ...admin,
      rawBody: `{"status":"approved","comment":{"object":"document","nodes":${nestedArrays(40)},"note":${inString}}}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const schema = await raw(t, 'PUT', `/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`, {
      ...admin,
      rawBody: `{"jsonSchema":${nestedSchema(4)}}`,
    });
    expect(schema.status).not.toBe(500);
  });
});

describe('router and HTTP parser refusals are in the error shape', () => {
  it('an undecodable %-escape in the path is a 400', async () => {
    expectError(await raw(t, 'GET', '/v1/spaces/%FF', admin), 400, /URL/);
    expectError(await raw(t, 'GET', '/v1/spaces/%ED%A0%80', admin), 400, /URL/);
  });

  it('a 101-character id is a 400 naming the parameter; a path segment past the router limit is a 414', async () => {
    expectError(await raw(t, 'GET', `/v1/spaces/${'a'.repeat(101)}`, admin), 400, /spaceId/);
    expectError(await raw(t, 'GET', `/v1/spaces/${'a'.repeat(2_000)}`, admin), 414);
  });

  it('a request head over 16 kB is a 431, a broken request line a 400', async () => {
    const host = new URL(t.url).host;
    for (const [request, status] of [
      [`GET /v1/ HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431],
      [`GET /v1/${'a'.repeat(17_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 431],
      ['NOT HTTP AT ALL\r\n\r\n', 400],
    ] as const) {
      const answer = await rawHttp(t.url, request);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expectError({ status: answer.status, body: JSON.parse(answer.body), headers: new Headers() }, status);
    }
  });
  it('a raw NUL, control character or non-ASCII byte in the request line is a 400 (only %-escapes reach the text guard)', async () => {
    const host = new URL(t.url).host;
    for (const path of [
      '/v1/spaces/a\u0000b',
      '/v1/spaces/a\u0001b',
      '/v1/spaces/caf\u00e9',
      '/v1/spaces/x?q=\ud83d\ude00',
    ]) {
      const answer = await rawHttp(t.url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(answer.status, path).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('the HTTP server', () => {
  it('applies the documented head size and timeouts', () => {
    const server = t.server.app.server;
    // Node keeps the createServer option on the server; its typings do not declare it.
    expect((server as unknown as { maxHeaderSize: number }).maxHeaderSize).toBe(MAX_HEADER_BYTES);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(server.timeout).toBe(CONNECTION_IDLE_TIMEOUT_MS);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  });
});
