import { describe, expect, it, vi } from 'vitest';
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree } from '@codemirror/language';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import type { Decoration } from '@codemirror/view';
import { buildInlineDecorations, hideSyntax, RevealedLines } from '../../renderer/src/editor/live-preview/decorations';
import { linesOf, scanGitbookBlocks } from '../../renderer/src/editor/live-preview/gitbook-blocks';
import {
  createOpenApiCatalog,
  openApiCatalogFacet,
  type OpenApiCatalog,
} from '../../renderer/src/editor/openapi/catalog';
import { OperationWidget } from '../../renderer/src/editor/openapi/operation-widget';
import { operationSummary } from '../../renderer/src/editor/openapi/operation-summary';
import { operationAttrsAt, specAttrAt } from '../../renderer/src/editor/openapi/spec-picker';
import { API_OPERATION, BLOCK_ITEMS } from '../../renderer/src/editor/authoring/blocks';
import { applySlashItem, filterBlocks } from '../../renderer/src/editor/authoring/slash-menu';
import { renderMarkdown } from '../../renderer/src/preview/render-markdown';
import type { ApiClient } from '../../renderer/src/api/client';
import type { SpecContent } from '../../renderer/src/openapi/openapi-api';

/** API operation blocks in the editor: parsing, the card, the summary cache, the `/` menu item, the reading view. */

const BLOCK = [
  '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
  '[OpenAPI petstore](https://example.com/petstore.yaml)',
  '{% endopenapi-operation %}',
].join('\n');

const CONTENT: SpecContent = {
  filesystem: {
    'openapi.yaml': {
      dir: '',
      isEntrypoint: true,
      references: [],
      filename: 'openapi.yaml',
      specification: { paths: { '/pets': { get: { summary: 'List all pets' }, post: { description: 'Add\nmore' } } } },
    },
  },
  urls: { source: '', public: null },
};

function cards(doc: string, cursor: number, catalog?: OpenApiCatalog) {
  const state = EditorState.create({
    doc,
    selection: { anchor: cursor },
    extensions: [markdown({ base: markdownLanguage }), ...(catalog ? [openApiCatalogFacet.of(catalog)] : [])],
  });
  ensureSyntaxTree(state, state.doc.length, 5000);
  const ranges = buildInlineDecorations(
    state,
    [{ from: 0, to: doc.length }],
    RevealedLines.of(state, state.selection.ranges),
    scanGitbookBlocks(linesOf(doc)),
    { resolveFile: () => undefined, openPage: () => undefined },
  );
  const point = (r: (typeof ranges)[number]) => (r.value as Decoration & { point?: boolean }).point;
  return {
    widgets: ranges
      .filter((r) => point(r) && r.value.spec.widget instanceof OperationWidget)
      .map((r) => ({ text: doc.slice(r.from, r.to), data: (r.value.spec.widget as OperationWidget).data })),
    hidden: ranges.filter((r) => r.value === hideSyntax).map((r) => doc.slice(r.from, r.to)),
  };
}

describe('API operation blocks in live preview', () => {
  it('finds the three forms, closed or standing alone', () => {
    const doc = [
      BLOCK,
      '',
      '{% openapi src="https://x.test/a.yaml" path="/a" method="post" %}',
      '{% endopenapi %}',
      '{% swagger src="https://x.test/s.json" path="/s" method="delete" %}',
    ].join('\n');
    const blocks = scanGitbookBlocks(linesOf(doc));
    expect(blocks.map((b) => [b.kind, b.attrs.path, Boolean(b.close)])).toEqual([
      ['openapi-operation', '/pets', true],
      ['openapi', '/a', true],
      ['swagger', '/s', false],
    ]);
  });

  it('draws a card over the tag and folds the fallback text away, raw again when the cursor is on the tag', () => {
    const drawn = cards(`Intro\n\n${BLOCK}\n`, 0);
    expect(drawn.widgets).toEqual([
      { text: BLOCK.split('\n')[0], data: { method: 'get', path: '/pets', spec: 'petstore' } },
    ]);
    expect(drawn.hidden).toEqual(expect.arrayContaining([BLOCK.split('\n')[1], BLOCK.split('\n')[2]]));
    const raw = cards(`Intro\n\n${BLOCK}\n`, 10);
    expect(raw.widgets).toEqual([]);
  });

  it('shows the older forms with their spec URL', () => {
    const doc = 'x\n\n{% swagger src="https://x.test/s.json" path="/s" method="delete" %}';
    expect(cards(doc, 0).widgets[0]!.data).toEqual({ method: 'delete', path: '/s', spec: 'https://x.test/s.json' });
  });

  it('adds the summary once the catalog holds it, without waiting on it', () => {
    let known = false;
    const catalog: OpenApiCatalog = {
      specSlugs: () => undefined,
      loadSpecSlugs: async () => [],
      summary: (slug, path, method) => (known ? `${slug} ${method} ${path}` : undefined),
      subscribe: () => () => undefined,
    };
    expect(cards(`x\n\n${BLOCK}`, 0, catalog).widgets[0]!.data.summary).toBeUndefined();
    known = true;
    expect(cards(`x\n\n${BLOCK}`, 0, catalog).widgets[0]!.data.summary).toBe('petstore get /pets');
  });

  it('widgets with equal data are equal (the DOM stays when nothing changed)', () => {
    const a = new OperationWidget({ method: 'get', path: '/pets', spec: 'p' });
    expect(a.eq(new OperationWidget({ method: 'get', path: '/pets', spec: 'p' }))).toBe(true);
    expect(a.eq(new OperationWidget({ method: 'get', path: '/pets', spec: 'p', summary: 's' }))).toBe(false);
  });
});

describe('operation summaries', () => {
  it('reads the summary, else the description’s first line, from the entry document', () => {
    expect(operationSummary(CONTENT, '/pets', 'GET')).toBe('List all pets');
    expect(operationSummary(CONTENT, '/pets', 'post')).toBe('Add');
    expect(operationSummary(CONTENT, '/none', 'get')).toBeUndefined();
    expect(operationSummary({ filesystem: {}, urls: { source: '', public: null } }, '/pets', 'get')).toBeUndefined();
  });

  it('fetches a spec once per version, in the background, and tells subscribers', async () => {
    const request = vi.fn(async (path: string) => {
      if (path.endsWith('/content')) return CONTENT;
      if (path === '/orgs/o1/openapi/petstore') return { slug: 'petstore', lastVersion: 'v1' };
      throw new Error(`unexpected ${path}`);
    });
    let now = 0;
    const catalog = createOpenApiCatalog({ request } as unknown as ApiClient, 'o1', () => now);
    const changed = vi.fn();
    catalog.subscribe(changed);
    expect(catalog.summary('petstore', '/pets', 'get')).toBeUndefined();
    await vi.waitFor(() => expect(changed).toHaveBeenCalled());
    expect(catalog.summary('petstore', '/pets', 'get')).toBe('List all pets');
    expect(request).toHaveBeenCalledTimes(2);
    // Later, the latest version is asked for again; the same version's content is not fetched twice.
    now = 120_000;
    catalog.summary('petstore', '/pets', 'get');
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(2));
    expect(request).toHaveBeenCalledTimes(3);
  });

  it('an unknown spec gives no summary and no error', async () => {
    const request = vi.fn(async () => {
      throw new Error('404');
    });
    const catalog = createOpenApiCatalog({ request } as unknown as ApiClient, 'o1');
    const changed = vi.fn();
    catalog.subscribe(changed);
    catalog.summary('nope', '/x', 'get');
    await vi.waitFor(() => expect(changed).toHaveBeenCalled());
    expect(catalog.summary('nope', '/x', 'get')).toBeUndefined();
  });
});

describe('inserting an API operation', () => {
  it('is in the `/` menu and writes GitBook’s block with the spec selected for the picker', () => {
    expect(filterBlocks('api')[0]!.id).toBe('api-operation');
    expect(filterBlocks('openapi')[0]!.id).toBe('api-operation');
    const item = BLOCK_ITEMS.find((i) => i.id === 'api-operation')!;
    const state = EditorState.create({ doc: 'Intro\n/api' });
    const spec = applySlashItem(state, item, 6, 10)!;
    const next = state.update(spec).state;
    expect(next.doc.toString()).toBe(
      'Intro\n\n{% openapi-operation spec="spec-slug" path="/path" method="get" %}\n{% endopenapi-operation %}\n',
    );
    const sel = next.selection.main;
    expect(next.sliceDoc(sel.from, sel.to)).toBe('spec-slug');
    expect(specAttrAt(next, sel.from, sel.to)?.value).toBe('spec-slug');
    expect(API_OPERATION).toContain('{% endopenapi-operation %}');
  });

  it('finds the attribute values of the tag line (and nothing on other lines)', () => {
    const state = EditorState.create({ doc: `x\n${BLOCK}` });
    const attrs = operationAttrsAt(state, 3)!;
    expect(attrs.map((a) => [a.name, state.sliceDoc(a.from, a.to)])).toEqual([
      ['spec', 'petstore'],
      ['path', '/pets'],
      ['method', 'get'],
    ]);
    expect(operationAttrsAt(state, 0)).toBeUndefined();
    expect(specAttrAt(state, attrs[1]!.from)).toBeUndefined();
  });
});

describe('reading view of API operation blocks', () => {
  it('shows a card with method, path and spec instead of the tags', () => {
    const html = renderMarkdown(`Intro\n\n${BLOCK}\n\nAfter`);
    expect(html).toContain('folio-api-card');
    expect(html).toContain('<span class="folio-api-method folio-api-method-get">GET</span>');
    expect(html).toContain('<span class="folio-api-path">/pets</span>');
    expect(html).toContain('petstore');
    expect(html).not.toContain('{%');
    expect(html).not.toContain('OpenAPI petstore');
    expect(html).toContain('After');
  });

  it('hides fallback text spread over paragraphs up to the end tag, and escapes attributes', () => {
    const html = renderMarkdown(
      '{% swagger src="https://x.test/s.json" path="/<b>" method="post" %}\n\nOld **description**\n\n{% endswagger %}\n\nAfter',
    );
    expect(html).toContain('POST');
    expect(html).not.toContain('description');
    expect(html).not.toContain('<b>');
    expect(html).toContain('After');
  });
});

describe('the spec picker', () => {
  it('offers the organization’s specs in a spec value and writes the chosen one', async () => {
    const { CompletionContext } = await import('@codemirror/autocomplete');
    const { specCompletions } = await import('../../renderer/src/editor/openapi/spec-picker');
    const catalog: OpenApiCatalog = {
      specSlugs: () => ['petstore', 'billing'],
      loadSpecSlugs: async () => ['petstore', 'billing'],
      summary: () => undefined,
      subscribe: () => () => undefined,
    };
    const doc = '{% openapi-operation spec="spec-slug" path="/path" method="get" %}\n{% endopenapi-operation %}';
    const from = doc.indexOf('spec-slug');
    const state = EditorState.create({
      doc,
      selection: { anchor: from, head: from + 'spec-slug'.length },
      extensions: [openApiCatalogFacet.of(catalog)],
    });
    const result = await specCompletions(new CompletionContext(state, from + 9, true));
    expect(result?.options.map((o) => o.label)).toEqual(['petstore', 'billing']);
    expect([result?.from, result?.to]).toEqual([from, from + 9]);
    // Outside a spec value, or without a catalog: nothing.
    expect(await specCompletions(new CompletionContext(EditorState.create({ doc }), 2, true))).toBeNull();
  });
});
