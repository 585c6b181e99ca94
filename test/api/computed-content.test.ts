import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { openApiSpecJob } from '../../sync-server/openapi-specs/process';
import { fails, ok, raw } from '../helpers/api';
import { httpGet } from '../helpers/http-get';
import { pdfText } from '../helpers/pdf-text';
import { signedPdfUrl } from '../../sync-server/pdf/routes';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Pages generated from an OpenAPI spec (GitBook's `builtin:openapi` computed content source): a
 * computed page written through a change request, read expanded by default (an overview with a page
 * per tag, drawn from the spec's latest version, ids derived from the page) and as its source with
 * `computed=false`; a new spec version shows without a new revision; getComputedRevision and
 * getComputedDocument through the official client (answers validated against GitBook's schemas);
 * the generated pages on the published site; and bad input refused with nothing written.
 */

let t: TestServer;
let orgId: string;
let spaceId: string;
let siteId: string;
let computedId: string;

const spec = (extraTag = false) =>
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Pet Store', version: extraTag ? '2.0.0' : '1.0.0', description: 'Everything about pets.' },
    servers: [{ url: 'https://api.example.com/v1' }],
    tags: [
      { name: 'pets', 'x-displayName': 'Pets', description: 'Adopt and care for pets.' },
      { name: 'stores', description: 'Where pets live.' },
      ...(extraTag ? [{ name: 'users', description: 'People.' }] : []),
    ],
    paths: {
      '/pets': {
        get: {
          tags: ['pets'],
          operationId: 'listPets',
          summary: 'List pets',
          responses: { '200': { description: 'ok' } },
        },
        post: {
          tags: ['pets'],
          operationId: 'createPet',
          summary: 'Create a pet',
          responses: { '201': { description: 'ok' } },
        },
      },
      '/stores/{id}': {
        get: {
          tags: ['stores'],
          summary: 'Get a store',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
      ...(extraTag
        ? { '/users': { get: { tags: ['users'], summary: 'List users', responses: { '200': { description: 'ok' } } } } }
        : {}),
    },
    components: {
      schemas: { Pet: { type: 'object', description: 'A pet.', properties: { name: { type: 'string' } } } },
    },
  });

const source = (specSlug = 'pets', props: Record<string, unknown> = { models: true }) => ({
  type: 'builtin:openapi' as const,
  dependencies: { spec: { ref: { kind: 'openapi' as const, spec: specSlug } } },
  props: props as { models: boolean },
});

async function putSpec(slug: string, text: string) {
  await raw(t, 'PUT', `/v1/orgs/${orgId}/openapi/${slug}`, { token: t.adminToken, body: { source: { text } } });
  await t.server.ctx.jobRunner.drain();
}

async function batch(changes: unknown[]) {
  const cr = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
  const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
    token: t.adminToken,
    body: { changes },
  });
  return { cr, res };
}

const listPages = async (query = '') =>
  (
    (await raw(t, 'GET', `/v1/spaces/${spaceId}/content/pages${query}`, { token: t.adminToken })).body as {
      pages: RevisionPage[];
    }
  ).pages;
const titles = (pages: readonly RevisionPage[]): unknown[] =>
  pages.map((p) => ('pages' in p && p.pages?.length ? [p.title, titles(p.pages as RevisionPage[])] : p.title));

beforeAll(async () => {
  t = await startTestServer();
  const { db, clock, config } = t.server.ctx;
  t.server.ctx.jobRunner.register(openApiSpecJob({ db, clock, outboundAllow: config.outboundAllow }));
  orgId = (await t.client.orgs.createOrganization({ title: 'Computed Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'API docs' })).data.id;
  await putSpec('pets', spec());
  const { cr, res } = await batch([
    { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.\n' } },
    { operation: 'insert_page', title: 'API reference', slug: 'reference', computed: source() },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  computedId = (res.body as { changes: { page: { id: string } }[] }).changes[1]!.page.id;
  await ok('mergeChangeRequest', t.client.spaces.mergeChangeRequest(spaceId, cr));
  siteId = (await t.client.orgs.createSite(orgId, { title: 'API Site', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a computed page in a space', () => {
  it('reads expanded by default: an overview in its place, a page per tag and the models, valid RevisionPages', async () => {
    const pages = (await ok('listPages', t.client.spaces.listPages(spaceId))).pages as RevisionPage[];
    expect(titles(pages)).toEqual(['Welcome', ['API reference', ['Pets', 'stores', 'Models']]]);
    const reference = pages[1] as RevisionPage & { pages: RevisionPage[]; path: string; markdown?: string };
    expect(reference).toMatchObject({ id: computedId, type: 'document', path: 'reference' });
    expect(reference.pages.map((p) => (p as { path: string }).path)).toEqual([
      'reference/pets',
      'reference/stores',
      'reference/models',
    ]);
    const petsId = reference.pages[0]!.id;
    const pets = (await ok('getPageById', t.client.spaces.getPageById(spaceId, petsId, { format: 'markdown' }))) as {
      markdown: string;
      description?: string;
    };
    expect(pets.description).toBe('Adopt and care for pets.');
    expect(pets.markdown).toContain('## List pets\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}');
    expect(pets.markdown).toContain('{% openapi-operation spec="pets" path="/pets" method="post" %}');
    expect(pets.markdown).not.toContain('/stores/');
    const overview = (await ok(
      'getPageById',
      t.client.spaces.getPageById(spaceId, computedId, { format: 'markdown' }),
    )) as { markdown: string };
    expect(overview.markdown).toContain('Everything about pets.');
    expect(overview.markdown).toContain('`https://api.example.com/v1`');
    expect(overview.markdown).toContain(`[Pets](/pages/${petsId})`);
    const models = await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'reference/models'));
    expect((models as { markdown: string }).markdown).toContain('## Pet');
    // The document form carries GitBook's block.
    const doc = (await ok('getPageById', t.client.spaces.getPageById(spaceId, petsId, { format: 'document' }))) as {
      document: unknown;
    };
    expect(JSON.stringify(doc.document)).toContain('openapi-operation');
  });

  it('reads as its source with computed=false (GitBook RevisionPageComputed)', async () => {
    const pages = (await ok('listPages', t.client.spaces.listPages(spaceId, { computed: false }))).pages;
    expect(pages[1]).toMatchObject({ id: computedId, type: 'computed', title: 'API reference', computed: source() });
    expect((pages[1] as { pages?: unknown[] }).pages ?? []).toEqual([]);
    const revision = (await raw(t, 'GET', `/v1/spaces/${spaceId}/content?computed=false`, { token: t.adminToken }))
      .body as { pages: RevisionPage[] };
    expect(revision.pages[1]).toMatchObject({ type: 'computed' });
  });

  it('shows a new spec version at the next read, keeping page ids, with no new revision', async () => {
    const before = await listPages();
    const revision = (await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision;
    await putSpec('pets', spec(true));
    const after = await listPages();
    expect(titles(after)).toEqual(['Welcome', ['API reference', ['Pets', 'stores', 'users', 'Models']]]);
    const ids = (pages: RevisionPage[]) => ((pages[1] as { pages: RevisionPage[] }).pages ?? []).map((p) => p.id);
    expect(ids(after).slice(0, 2)).toEqual(ids(before).slice(0, 2));
    expect((await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision).toBe(revision);
    const page = await raw(t, 'GET', `/v1/spaces/${spaceId}/content/path/reference/users`, { token: t.adminToken });
    expect(page.status).toBe(200);
  });

  it('shows a notice in its place when its spec is missing, and stays a computed page', async () => {
    const { cr, res } = await batch([{ operation: 'update_page', page: computedId, computed: source('nope') }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const crPages = (
      (await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { token: t.adminToken }))
        .body as { pages: RevisionPage[] }
    ).pages;
    const reference = crPages[1] as { markdown: string; pages: unknown[] };
    expect(reference.pages).toEqual([]);
    expect(reference.markdown).toContain('OpenAPI spec “nope”, which this organization does not have');
  });
});

describe('the published site', () => {
  it('serves the generated pages, with the operations drawn from the spec', async () => {
    const res = await httpGet(t.url, `/sites/${siteId}/reference/pets`, {});
    expect(res.status).toBe(200);
    expect(res.body).toContain('openapi-operation');
    expect(res.body).toContain('/pets');
    const overview = await httpGet(t.url, `/sites/${siteId}/reference`, {});
    expect(overview.body).toContain('Everything about pets.');
    // The navigation lists the generated pages under the computed page's title.
    expect(overview.body).toMatch(/href="[^"]*reference\/stores"/);
  });
});

describe('a PDF export', () => {
  it('prints the generated pages', async () => {
    const revision = (await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision;
    const res = await fetch(signedPdfUrl(t.server.ctx, revision));
    expect(res.status).toBe(200);
    const text = await pdfText(await res.arrayBuffer());
    for (const expected of ['API reference', 'Everything about pets.', 'Adopt and care for pets.', 'Where pets live.'])
      expect(text).toContain(expected);
  });
});

describe('getComputedRevision and getComputedDocument', () => {
  it('computes the pages of a source with ids from the seed', async () => {
    const a = await ok(
      'getComputedRevision',
      t.client.spaces.getComputedRevision(spaceId, { source: source('pets', { models: false }), seed: 'one' }),
    );
    expect(a.pages.map((p) => p.title)).toEqual(['Pets', 'stores', 'users']);
    expect(a.files).toEqual([]);
    const again = await ok(
      'getComputedRevision',
      t.client.spaces.getComputedRevision(spaceId, { source: source('pets', { models: false }), seed: 'one' }),
    );
    const other = await ok(
      'getComputedRevision',
      t.client.spaces.getComputedRevision(spaceId, { source: source('pets', { models: false }), seed: 'two' }),
    );
    expect(again.pages.map((p) => p.id)).toEqual(a.pages.map((p) => p.id));
    expect(other.pages[0]!.id).not.toBe(a.pages[0]!.id);
  });

  it('lays out a page per operation with grouping by-operation', async () => {
    const res = await ok(
      'getComputedRevision',
      t.client.spaces.getComputedRevision(spaceId, {
        source: source('pets', { models: false, grouping: 'by-operation' }),
        seed: 's',
      }),
    );
    const pets = res.pages[0] as RevisionPage & { pages: RevisionPage[] };
    expect(pets.pages.map((p) => [p.title, (p as { slug: string }).slug])).toEqual([
      ['List pets', 'listpets'],
      ['Create a pet', 'createpet'],
    ]);
  });

  it('computes one document: a tag, an operation, the models', async () => {
    const docSource = (props: Record<string, unknown>) => ({ ...source('pets'), props }) as never;
    const tag = await ok(
      'getComputedDocument',
      t.client.spaces.getComputedDocument(spaceId, {
        source: docSource({ doc: 'operations', page: 'pets' }),
        seed: 's',
      }),
    );
    expect(tag.object).toBe('document');
    expect(JSON.stringify(tag)).toContain('/pets');
    const op = await ok(
      'getComputedDocument',
      t.client.spaces.getComputedDocument(spaceId, {
        source: docSource({ doc: 'operation', page: '/stores/{id}', method: 'get' }),
        seed: 's',
      }),
    );
    expect(JSON.stringify(op)).toContain('/stores/{id}');
    await ok(
      'getComputedDocument',
      t.client.spaces.getComputedDocument(spaceId, { source: docSource({ doc: 'models' }), seed: 's' }),
    );
    await fails(
      t.client.spaces.getComputedDocument(spaceId, { source: docSource({ doc: 'tag', page: 'nope' }), seed: 's' }),
      404,
    );
    await fails(
      t.client.spaces.getComputedDocument(spaceId, {
        source: docSource({ doc: 'operation', page: '/pets' }),
        seed: 's',
      }),
      400,
    );
  });

  it('refuses what it cannot compute with a clear 4xx', async () => {
    const post = (body: unknown) =>
      raw(t, 'POST', `/v1/spaces/${spaceId}/content/computed/revision`, { token: t.adminToken, body });
    const translation = await post({ source: { type: 'builtin:translation', props: {}, dependencies: {} }, seed: 's' });
    expect(translation.status).toBe(400);
    expect(JSON.stringify(translation.body)).toContain('builtin:openapi');
    expect((await post({ source: source('nope'), seed: 's' })).status).toBe(404);
    expect((await post({ source: { type: 'builtin:openapi', dependencies: {} }, seed: 's' })).status).toBe(400);
    expect((await post({ source: source() })).status).toBe(400);
    await raw(t, 'POST', `/v1/orgs/${orgId}/openapi`, {
      token: t.adminToken,
      body: { slug: 'later', source: { url: 'http://127.0.0.1:9/never.json' } },
    });
    const pending = await post({ source: source('later'), seed: 's' });
    expect([409]).toContain(pending.status);
    expect((pending.body as { error: { code: number; message: string } }).error.message).toMatch(/later/);
  });
});

describe('bad input to the batch', () => {
  it('refuses an invalid computed page with a 400 naming the change, and writes nothing', async () => {
    const before = (await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision;
    const cases: [unknown, RegExp][] = [
      [{ operation: 'insert_page', computed: { type: 'builtin:openapi' } }, /changes\[0\]\.computed/],
      [{ operation: 'insert_page', computed: source(), document: { markdown: 'x' } }, /computed page has no document/],
      [{ operation: 'insert_page', title: 'X' }, /changes\[0\]\.document: is required/],
      [
        { operation: 'insert_page', into: computedId, document: { markdown: 'x' } },
        /computed pages cannot have child pages/,
      ],
      [{ operation: 'update_page', page: computedId, computed: { type: 'nope' } }, /changes\[0\]\.computed/],
    ];
    for (const [change, message] of cases) {
      const { res } = await batch([change]);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    }
    expect((await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision).toBe(before);
  });
});
