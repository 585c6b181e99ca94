import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPISpec } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { openApiSpecJob } from '../../sync-server/openapi-specs/process';
import { ok } from '../helpers/api';
import { httpGet } from '../helpers/http-get';
import { startSpecServer, type SpecServer } from '../helpers/openapi-spec-server';
import { referenceSpec } from '../helpers/openapi-reference-spec';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * API reference blocks on the published site: pages holding GitBook's OpenAPI operation blocks
 * (the current `openapi-operation` form and the older `openapi` / `swagger` forms), drawn from
 * specs processed for real through the job runner from a local server; a new spec version shows
 * without editing the page; notices for what cannot be drawn; and the block in `format=document`.
 */

let t: TestServer;
let specs: SpecServer;
let orgId: string;
let spaceId: string;
let siteId: string;
const pages: Record<string, string> = {};

const get = (path: string) => httpGet(t.url, path, {});
const site = (rest = '') => `/sites/${siteId}/${rest}`;

async function processed(slug: string): Promise<OpenAPISpec> {
  for (let round = 0; round < 6; round++) {
    await t.server.ctx.jobRunner.drain();
    const spec = await ok('getOpenAPISpecBySlug', t.client.orgs.getOpenApiSpecBySlug(orgId, slug));
    if (spec.processingState === 'complete') return spec;
    t.clock.advance(6 * 60_000);
  }
  throw new Error(`${slug} never finished processing`);
}

const block = (form: string, attrs: string, end = form) =>
  `{% ${form} ${attrs} %}\n[OpenAPI](https://example.com)\n{% end${end} %}`;

beforeAll(async () => {
  specs = await startSpecServer();
  specs.set('reference.json', JSON.stringify(referenceSpec()));
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  const { db, clock, config } = t.server.ctx;
  t.server.ctx.jobRunner.register(
    openApiSpecJob(
      { db, clock, outboundAllow: config.outboundAllow },
      { fetchTimeoutMs: 1000, connectTimeoutMs: 1000 },
    ),
  );
  orgId = (await t.client.orgs.createOrganization({ title: 'API Docs Org' })).data.id;
  await t.client.orgs.createOpenApiSpec(orgId, {
    slug: 'pets',
    source: { url: `${specs.url}/mutable/reference.json` },
  });
  await t.client.orgs.createOpenApiSpec(orgId, { slug: 'swagger-pets', source: { url: `${specs.url}/v20.json` } });
  await processed('pets');
  await processed('swagger-pets');
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'API' })).data.id;
  const srcUrl = `${specs.url}/mutable/reference.json`;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const c = new ContentDoc(doc);
    pages.update = c.createPage({
      title: 'Update a pet',
      slug: 'update',
      markdown: `Intro text.\n\n${block('openapi-operation', 'spec="pets" path="/pets/{petId}" method="put"')}\n\nAfter the block.\n`,
    });
    pages.old = c.createPage({
      title: 'Old forms',
      slug: 'old',
      markdown: `${block('openapi', `src="${srcUrl}" path="/pets" method="get"`)}\n\n${block(
        'swagger',
        `src="${specs.url}/v20.json" path="/pets" method="get"`,
      )}\n`,
    });
    pages.notices = c.createPage({
      title: 'Notices',
      slug: 'notices',
      markdown: [
        block('openapi-operation', 'spec="nope" path="/pets" method="get"'),
        block('openapi-operation', 'spec="pets" path="/nowhere" method="get"'),
        block('openapi-operation', 'spec="pets" path="/pets" method="delete"'),
        block('swagger', 'src="https://unknown.example/spec.json" path="/pets" method="get"'),
        block('openapi-operation', 'spec="later" path="/pets" method="get"'),
        '```markdown\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n```',
      ].join('\n\n'),
    });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'API Site', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await specs?.close();
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

describe('API reference blocks on the published site', () => {
  it('draws the operation: method, path, parameters, schema tree, curl, examples, under the page CSP', async () => {
    const res = await get(site('update'));
    expect(res.status).toBe(200);
    const html = res.body;
    expect(html).toContain(
      '<span class="oa-method oa-method-put">PUT</span><code class="oa-path">/pets/{petId}</code>',
    );
    expect(html).toContain('<p class="oa-summary">Update a pet</p>');
    for (const name of ['petId', 'dryRun', 'X-Request-Id', 'session', 'kind', 'owner', 'email'])
      expect(html).toContain(`<code class="oa-field-name">${name}</code>`);
    expect(text(html)).toContain('Possible values: dog cat bird');
    expect(text(html)).toContain('Circular reference to Pet');
    expect(html).toContain('<details class="oa-nested">');
    expect(text(html)).toContain("--url 'https://api.example.com/v1/pets/{petId}?dryRun=false'");
    expect(text(html)).toContain("--header 'Authorization: Bearer YOUR_TOKEN'");
    expect(text(html)).toContain('"name": "Rex"');
    // Highlighted as a page's fences are (through the parse pool).
    expect(html).toContain('<code class="language-bash shiki">');
    expect(html).toContain('<code class="language-json shiki">');
    // The text around the block stays; the block's fallback link is gone; description HTML sanitized.
    expect(html).toContain('Intro text.');
    expect(html).toContain('After the block.');
    expect(html).not.toContain('{% openapi');
    expect(html).toContain('<b>HTML too</b>');
    expect(html).not.toMatch(/<script>alert|onerror/);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
  });

  it('shows a new spec version without the page being edited', async () => {
    const next = referenceSpec();
    (next.paths['/pets/{petId}'].put as { summary: string }).summary = 'Update a pet, second edition';
    specs.set('reference.json', JSON.stringify(next));
    await t.client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'pets', {
      source: { url: `${specs.url}/mutable/reference.json` },
    });
    await processed('pets');
    const html = (await get(site('update'))).body;
    expect(html).toContain('Update a pet, second edition');
  });

  it('reads the older openapi and swagger forms, matching the spec by its source URL', async () => {
    const html = (await get(site('old'))).body;
    const ops = html.match(/<div class="openapi-operation"/g) ?? [];
    expect(ops).toHaveLength(2);
    expect(html).toContain('<span class="oa-method oa-method-get">GET</span><code class="oa-path">/pets</code>');
    expect(html).toContain('<code class="oa-field-name">limit</code>');
    expect(html).not.toContain('class="openapi-operation oa-notice"');
  });

  it('shows a notice for an unknown spec, path or method, an unknown URL, a spec not processed yet', async () => {
    await t.client.orgs.createOpenApiSpec(orgId, { slug: 'later', source: { url: `${specs.url}/v30.json` } });
    const res = await get(site('notices'));
    expect(res.status).toBe(200);
    const t2 = text(res.body);
    expect(t2).toContain('OpenAPI spec not found');
    expect(t2).toContain('“nope”, which this organization does not have');
    expect(t2).toContain('has no GET /nowhere operation');
    expect(t2).toContain('has no DELETE /pets operation');
    expect(t2).toContain('no OpenAPI spec of this organization comes from there');
    expect(t2).toContain('OpenAPI spec not processed yet');
    expect(res.body.match(/oa-notice"/g)).toHaveLength(5);
    // In code, the tag is text.
    expect(res.body).toContain('{% openapi-operation spec=');
    // Once processed, the block shows the operation.
    await processed('later');
    expect(text((await get(site('notices'))).body)).not.toContain('not processed yet');
  });

  // `ok` validates each page against GitBook's schema for getPageById (its document's blocks included).
  it('returns the block in format=document, as GitBook documents it', async () => {
    const page = await ok('getPageById', t.client.spaces.getPageById(spaceId, pages.update!, { format: 'document' }));
    const nodes = (page as unknown as { document: { nodes: { type: string; data: unknown }[] } }).document.nodes;
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'openapi-operation', 'paragraph']);
    expect(nodes[1]).toMatchObject({
      object: 'block',
      type: 'openapi-operation',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets/{petId}', method: 'put' },
    });
    const old = await ok('getPageById', t.client.spaces.getPageById(spaceId, pages.old!, { format: 'document' }));
    const oldNodes = (old as unknown as { document: { nodes: { type: string; data: unknown }[] } }).document.nodes;
    expect(oldNodes.map((n) => n.type)).toEqual(['swagger', 'swagger']);
    expect(oldNodes[0]!.data).toMatchObject({ ref: { kind: 'url' }, path: '/pets', method: 'get' });
  });
});
