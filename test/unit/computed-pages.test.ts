import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { ContentDoc, Materializer, openApiSource, readComputedSource } from '../../shared/doc';
import { PAGE, pagesRoot } from '../../shared/doc/keys';
import { specOutline } from '../../sync-server/openapi-specs/outline';
import { documentMarkdown, openApiPages } from '../../sync-server/computed-content/openapi-pages';
import { derivedId } from '../../sync-server/computed-content/derived-ids';

/**
 * Computed pages in the content model (a kind with a source, no children, a malformed source
 * degrading to a document) and the pages a `builtin:openapi` source generates from a spec's
 * outline (Swagger 2.0 and OpenAPI 3, tags in the spec's order, untagged operations, stable ids,
 * unique slugs, paths that cannot sit in a block left out).
 */

describe('computed pages in the content document', () => {
  it('stores the source, materializes a RevisionPageComputed, refuses children and a missing source', () => {
    const ydoc = new Y.Doc();
    const content = new ContentDoc(ydoc);
    const id = content.createPage({
      title: 'API',
      kind: 'computed',
      computed: openApiSource('pets', { models: true }),
    });
    expect(() => content.createPage({ title: 'Child', parent: id })).toThrow(/cannot have child pages/);
    expect(() => content.createPage({ title: 'No source', kind: 'computed' })).toThrow(/need a source/);
    const doc = content.createPage({ title: 'Doc' });
    expect(() => content.updatePage(doc, { kind: 'computed' })).toThrow(/need a source/);
    const materializer = new Materializer(ydoc);
    const page = materializer.snapshot().pages[0]!;
    expect(page).toMatchObject({
      id,
      type: 'computed',
      path: 'api',
      computed: {
        type: 'builtin:openapi',
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
        props: { models: true },
      },
    });
    content.updatePage(id, { computed: openApiSource('other', { grouping: 'by-operation' }) });
    expect(materializer.snapshot().pages[0]).toMatchObject({
      computed: {
        dependencies: { spec: { ref: { spec: 'other' } } },
        props: { models: false, grouping: 'by-operation' },
      },
    });
  });

  it('reads a computed page whose source a peer broke as a document (its body stays visible)', () => {
    const ydoc = new Y.Doc();
    const content = new ContentDoc(ydoc);
    const id = content.createPage({ title: 'API', kind: 'computed', computed: openApiSource('pets') });
    ydoc.transact(() => (pagesRoot(ydoc).get(id) as Y.Map<unknown>).set(PAGE.computed, { type: 'builtin:openapi' }));
    expect(content.getPage(id)!.kind).toBe('document');
    expect(new Materializer(ydoc).snapshot().pages[0]!.type).toBe('document');
  });

  it('accepts only sources it can expand, normalized', () => {
    expect(readComputedSource({ type: 'builtin:translation', dependencies: {}, props: {} })).toBeUndefined();
    expect(
      readComputedSource({
        type: 'builtin:openapi',
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'a b' } } },
      }),
    ).toBeUndefined();
    expect(
      readComputedSource({
        type: 'builtin:openapi',
        extra: 1,
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' }, value: { object: 'openapi-spec' } } },
        props: { models: 'yes', grouping: 'sideways' },
      }),
    ).toEqual(openApiSource('pets'));
  });
});

const swagger = {
  swagger: '2.0',
  info: { title: 'Old API', version: '1' },
  host: 'api.example.com',
  basePath: '/v1',
  schemes: ['https'],
  paths: {
    '/things': { get: { summary: 'List things', tags: ['Things'] }, post: { summary: 'Make a thing' } },
    '/odd"path': { get: { tags: ['Things'] } },
  },
  definitions: { Thing: { type: 'object', description: 'A thing.' } },
};

describe('pages generated from a spec', () => {
  it('outlines Swagger 2.0: servers from host, untagged operations under Other, definitions as schemas', () => {
    const outline = specOutline(swagger as never);
    expect(outline.servers).toEqual(['https://api.example.com/v1']);
    expect(outline.tags.map((t) => [t.name, t.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ['Things', ['get /things', 'get /odd"path']],
      ['Other', ['post /things']],
    ]);
    expect(outline.schemas).toEqual([{ name: 'Thing', description: 'A thing.', schema: swagger.definitions.Thing }]);
  });

  it('makes a page per tag with ids from the seed, leaving out paths a block cannot hold', () => {
    const outline = specOutline(swagger as never);
    const source = openApiSource('old', { models: true });
    const { pages, overview } = openApiPages({ source, seed: 'page1', outline });
    expect(pages.map((p) => [p.title, p.slug])).toEqual([
      ['Things', 'things'],
      ['Other', 'other'],
      ['Models', 'models'],
    ]);
    expect(pages[0]!.id).toBe(derivedId('page1', 'tag:Things'));
    expect(pages[0]!.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(pages[0]!.markdown).toContain('{% openapi-operation spec="old" path="/things" method="get" %}');
    expect(pages[0]!.markdown).not.toContain('odd');
    expect(overview).toContain(`[Things](/pages/${pages[0]!.id})`);
    expect(openApiPages({ source, seed: 'page2', outline }).pages[0]!.id).not.toBe(pages[0]!.id);
  });

  it('gives unique slugs to tags whose titles slugify alike, and a page per operation when asked', () => {
    const outline = specOutline({
      openapi: '3.0.0',
      info: { title: 'X', version: '1' },
      paths: {
        '/a': { get: { tags: ['Users'], operationId: 'getA' }, put: { tags: ['users!'], operationId: 'getA' } },
      },
    });
    const { pages } = openApiPages({
      source: openApiSource('x', { grouping: 'by-operation' }),
      seed: 's',
      outline,
    });
    expect(pages.map((p) => p.slug)).toEqual(['users', 'users-2']);
    expect(pages[0]!.pages.map((p) => [p.slug, p.markdown.trim()])).toEqual([
      ['geta', '{% openapi-operation spec="x" path="/a" method="get" %}\n{% endopenapi-operation %}'],
    ]);
    expect(
      documentMarkdown(
        { source: openApiSource('x'), seed: 's', outline },
        { doc: 'operation', page: '/a', method: 'PUT' },
      ),
    ).toContain('method="put"');
  });
});
