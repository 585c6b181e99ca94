import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { openApiSpecJob } from '../../sync-server/openapi-specs/process';
import { TEMPLATES, TEMPLATE_IDS } from '../../sync-server/templates/catalogue';
import { flattenPages } from '../../sync-server/templates/expand';
import { expectError, fails, newUser, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Space templates: GitBook's applyTemplateToSpace through the official client (answers validated
 * against GitBook's schema), the catalogue (listTemplates, a Folio extension), params.contentRefs,
 * pages kept, one revision, permissions and refusals of bad input that change nothing.
 */

let t: TestServer;
let orgId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { db, clock, config } = t.server.ctx;
  t.server.ctx.jobRunner.register(openApiSpecJob({ db, clock, outboundAllow: config.outboundAllow }));
  orgId = (await t.client.orgs.createOrganization({ title: 'Templates Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const newSpace = async (title = 'Docs') => (await t.client.orgs.createSpace(orgId, { title })).data.id;
const apply = (spaceId: string, body: Parameters<TestServer['client']['spaces']['applyTemplateToSpace']>[1]) =>
  ok('applyTemplateToSpace', t.client.spaces.applyTemplateToSpace(spaceId, body), 201);
const pages = async (spaceId: string) =>
  (await ok('listPages', t.client.spaces.listPages(spaceId))).pages as RevisionPage[];
const titles = (list: RevisionPage[]): unknown[] =>
  list.map((p) => ('pages' in p && p.pages.length ? [p.title, titles(p.pages as RevisionPage[])] : p.title));
const expectedTitles = (id: string): unknown[] =>
  TEMPLATES.find((x) => x.id === id)!.pages.map((p) =>
    p.pages?.length ? [p.title, p.pages.map((c) => c.title)] : p.title,
  );
const markdownOf = async (spaceId: string, pageId: string) =>
  (
    (await ok('getPageById', t.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' }))) as {
      markdown: string;
    }
  ).markdown;
const allPages = (list: RevisionPage[]): RevisionPage[] =>
  list.flatMap((p) => [p, ...('pages' in p ? allPages(p.pages as RevisionPage[]) : [])]);
const revisionOf = async (spaceId: string) =>
  (await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision;
/** Revisions of the space (listSpaceRevisions is a Folio extension: no client method). */
const revisionCount = async (spaceId: string) =>
  (
    (await raw(t, 'GET', `/v1/spaces/${spaceId}/revisions?limit=100`, { token: t.adminToken })).body as {
      items: unknown[];
    }
  ).items.length;

describe('the catalogue', () => {
  it('has the five templates of the issue, each with pages whose placeholders name its own pages and references', () => {
    expect(TEMPLATE_IDS).toEqual(
      expect.arrayContaining(['api-reference', 'product-docs', 'knowledge-base', 'changelog', 'onboarding']),
    );
    for (const template of TEMPLATES) {
      const flat = flattenPages(template);
      const refs = new Set(flat.map((f) => f.page.ref));
      expect(refs.size, `${template.id}: page refs are unique`).toBe(flat.length);
      const texts = [...flat.map((f) => f.page.markdown), ...template.refs.map((r) => r.fallback)];
      for (const text of texts) {
        for (const [, ref] of text.matchAll(/\{\{page:([a-z0-9-]+)\}\}/g)) expect(refs, template.id).toContain(ref);
        for (const [, name] of text.matchAll(/\{\{ref:([a-z0-9-]+)\}\}/g))
          expect(
            template.refs.map((r) => r.name),
            template.id,
          ).toContain(name);
      }
      // listTemplates answers two levels of pages.
      for (const f of flat) if (f.parent !== undefined) expect(flat[f.parent]!.parent).toBeUndefined();
    }
  });

  it('is listed through the API (public: the same for everyone) with ids, titles, descriptions and page titles', async () => {
    const res = await raw(t, 'GET', '/v1/templates');
    expect(res.status).toBe(200);
    const { items } = res.body as {
      items: {
        id: string;
        title: string;
        description: string;
        pages: { title: string; pages: { title: string }[] }[];
      }[];
    };
    expect(items.map((i) => i.id)).toEqual(TEMPLATE_IDS);
    const kb = items.find((i) => i.id === 'knowledge-base')!;
    expect(kb).toMatchObject({ title: 'Knowledge base', description: expect.stringMatching(/help centre/) });
    expect(kb.pages.map((p) => p.title)).toEqual([
      'Help centre',
      'Account and billing',
      'Troubleshooting',
      'Contact support',
    ]);
    expect(kb.pages[1]!.pages.map((p) => p.title)).toEqual(['Reset your password', 'Change your plan']);
    expect(items.find((i) => i.id === 'api-reference')).toMatchObject({
      contentRefs: [{ name: 'openapi', kinds: ['openapi'] }],
    });
  });

  it('gives its ids as the enum of the body’s id in /v1/openapi.json', async () => {
    const doc = (await raw(t, 'GET', '/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            requestBody: { content: Record<string, { schema: { properties: { id: { enum: string[] } } } }> };
          }
        >
      >;
    };
    const op = doc.paths['/v1/spaces/{spaceId}/content/template']!.post!;
    expect(op.operationId).toBe('applyTemplateToSpace');
    expect(op.requestBody.content['application/json']!.schema.properties.id.enum).toEqual(TEMPLATE_IDS);
    expect(doc.paths['/v1/templates']!.get!.operationId).toBe('listTemplates');
  });
});

describe('applyTemplateToSpace', () => {
  it.each(TEMPLATE_IDS)(
    'applies %s to an empty space as one revision, links between its pages resolved',
    async (id) => {
      const spaceId = await newSpace();
      const before = await revisionCount(spaceId);
      await apply(spaceId, { id });
      const list = await pages(spaceId);
      expect(titles(list)).toEqual(expectedTitles(id));
      expect(await revisionCount(spaceId)).toBe(before + 1);
      for (const page of allPages(list)) {
        const markdown = await markdownOf(spaceId, page.id);
        expect(markdown, `${id} / ${page.title}`).not.toMatch(/\{\{|\}\}/);
        expect(markdown.length, `${id} / ${page.title}`).toBeGreaterThan(100);
      }
    },
  );

  it.each(TEMPLATE_IDS)('appends %s to a space with pages, which are kept as they were', async (id) => {
    const spaceId = await newSpace();
    await apply(spaceId, { id: 'onboarding' });
    const kept = await pages(spaceId);
    const keptText = await markdownOf(spaceId, kept[0]!.id);
    await apply(spaceId, { id });
    const list = await pages(spaceId);
    expect(list.slice(0, kept.length).map((p) => [p.id, p.title])).toEqual(kept.map((p) => [p.id, p.title]));
    expect(titles(list.slice(kept.length))).toEqual(expectedTitles(id));
    expect(await markdownOf(spaceId, kept[0]!.id)).toBe(keptText);
  });

  it('links the template’s pages to each other by id, and content-ref cards too', async () => {
    const spaceId = await newSpace();
    await apply(spaceId, { id: 'knowledge-base' });
    const list = allPages(await pages(spaceId));
    const home = list.find((p) => p.title === 'Help centre')!;
    const account = list.find((p) => p.title === 'Account and billing')!;
    const contact = list.find((p) => p.title === 'Contact support')!;
    const markdown = await markdownOf(spaceId, home.id);
    expect(markdown).toContain('{% hint style="info" %}');
    const doc = await ok('getPageById', t.client.spaces.getPageById(spaceId, home.id, { format: 'document' }));
    const json = JSON.stringify(doc);
    expect(json).toContain(account.id);
    expect(json).toContain(contact.id);
  });

  it('substitutes params.contentRefs: a URL reference becomes the link target', async () => {
    const spaceId = await newSpace();
    await apply(spaceId, {
      id: 'knowledge-base',
      params: { contentRefs: { support: { kind: 'url', url: 'https://help.example.org/new ticket (form)' } } },
    });
    const home = (await pages(spaceId))[0]!;
    const markdown = await markdownOf(spaceId, home.id);
    expect(markdown).toContain('https://help.example.org/new%20ticket%20%28form%29');
  });

  it('substitutes an OpenAPI spec reference: one operation block per operation of its latest version', async () => {
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Pets', version: '1.0.0' },
      paths: {
        '/pets': {
          get: { tags: ['Pets'], responses: { '200': { description: 'ok' } } },
          post: { tags: ['Pets'], responses: { '201': { description: 'created' } } },
        },
        '/stores/{id}': {
          get: {
            tags: ['Stores'],
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    await ok('createOpenAPISpec', t.client.orgs.createOpenApiSpec(orgId, { slug: 'pets', source: { text } }), 201);
    await t.server.ctx.jobRunner.drain();
    expect(
      (await ok('getOpenAPISpecBySlug', t.client.orgs.getOpenApiSpecBySlug(orgId, 'pets'))).lastVersion,
    ).toBeTruthy();
    const spaceId = await newSpace();
    await apply(spaceId, {
      id: 'api-reference',
      params: { contentRefs: { openapi: { kind: 'openapi', spec: 'pets' } } },
    });
    const reference = (await pages(spaceId)).find((p) => p.title === 'API reference')!;
    const markdown = await markdownOf(spaceId, reference.id);
    expect(markdown).toContain('{% openapi-operation spec="pets" path="/pets" method="get" %}');
    expect(markdown).toContain('{% openapi-operation spec="pets" path="/pets" method="post" %}');
    expect(markdown).toContain('{% openapi-operation spec="pets" path="/stores/{id}" method="get" %}');
    expect(markdown).toMatch(/## Pets[\s\S]*## Stores/);
  });

  it('without a spec, the API reference has a placeholder operation block that says how to add one', async () => {
    const spaceId = await newSpace();
    await apply(spaceId, { id: 'api-reference' });
    const reference = (await pages(spaceId)).find((p) => p.title === 'API reference')!;
    const markdown = await markdownOf(spaceId, reference.id);
    expect(markdown).toMatch(
      /\{% openapi-operation spec="your-api" path="\/pets" method="get" %\}[\s\S]*OpenAPI specs[\s\S]*\{% endopenapi-operation %\}/,
    );
  });

  it('applies to a change request when changeRequestId is given, leaving the main content alone', async () => {
    const spaceId = await newSpace();
    const cr = await ok(
      'createChangeRequest',
      t.client.spaces.createChangeRequest(spaceId, { subject: 'Template' }),
      201,
    );
    await apply(spaceId, { id: 'changelog', changeRequestId: cr.id });
    expect(await pages(spaceId)).toEqual([]);
    const inCr = await ok('listPagesInChangeRequest', t.client.spaces.listPagesInChangeRequest(spaceId, cr.id));
    expect(titles(inCr.pages as RevisionPage[])).toEqual(expectedTitles('changelog'));
  });
});

describe('refusals', () => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await newSpace('Refusals');
    await apply(spaceId, { id: 'onboarding' });
  });

  /** Each refusal leaves the space's content and its revision as they were. */
  async function refused(body: unknown, status: number, message?: RegExp, token = t.adminToken) {
    const before = await revisionOf(spaceId);
    const count = (await pages(spaceId)).length;
    expectError(await raw(t, 'POST', `/v1/spaces/${spaceId}/content/template`, { token, body }), status, message);
    expect(await revisionOf(spaceId)).toBe(before);
    expect((await pages(spaceId)).length).toBe(count);
  }

  it('refuses an unknown template id, or none, with a 400', async () => {
    await refused({ id: 'no-such-template' }, 400, /id/);
    await refused({}, 400, /id/);
    await refused({ id: 42 }, 400);
    expect(await fails(t.client.spaces.applyTemplateToSpace(spaceId, { id: 'nope' }), 400)).toBeTruthy();
  });

  it('refuses references the template does not take, of the wrong kind, or malformed', async () => {
    await refused(
      { id: 'knowledge-base', params: { contentRefs: { logo: { kind: 'url', url: 'https://x.test' } } } },
      400,
      /takes no reference "logo".*"support"/,
    );
    await refused(
      { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'openapi', spec: 'pets' } } } },
      400,
      /kind: must be "url"/,
    );
    await refused(
      { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url', url: 'javascript:alert(1)' } } } },
      400,
      /http, https or mailto/,
    );
    await refused(
      { id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url', url: 'not a url' } } } },
      400,
      /not an absolute URL/,
    );
    await refused({ id: 'knowledge-base', params: { contentRefs: { support: { kind: 'url' } } } }, 400, /url/);
    await refused({ id: 'knowledge-base', params: { contentRefs: { support: { kind: 'nonsense' } } } }, 400);
    await refused({ id: 'knowledge-base', params: { contentRefs: { support: 'https://x.test' } } }, 400);
    await refused(
      { id: 'api-reference', params: { contentRefs: { openapi: { kind: 'openapi', spec: 'missing' } } } },
      400,
      /no OpenAPI spec "missing"/,
    );
  });

  it('refuses an unknown change request (404) and an unknown space (404)', async () => {
    await refused({ id: 'changelog', changeRequestId: 'nosuchcr' }, 404);
    expectError(
      await raw(t, 'POST', '/v1/spaces/nosuchspace/content/template', {
        token: t.adminToken,
        body: { id: 'changelog' },
      }),
      404,
    );
  });

  it('needs the edit role: readers get a 403, outsiders a 404, no token a 401', async () => {
    const reader = await newMember(t, orgId, 'read');
    await refused({ id: 'changelog' }, 403, /edit/, reader.token);
    const outsider = await newUser(t);
    await refused({ id: 'changelog' }, 404, undefined, outsider.token);
    expectError(await raw(t, 'POST', `/v1/spaces/${spaceId}/content/template`, { body: { id: 'changelog' } }), 401);
    const editor = await newMember(t, orgId, 'edit');
    await ok(
      'applyTemplateToSpace',
      t.clientFor(editor.token).spaces.applyTemplateToSpace(spaceId, { id: 'changelog' }),
      201,
    );
  });
});
