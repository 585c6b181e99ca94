import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree } from '@codemirror/language';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import type { Decoration } from '@codemirror/view';
import { buildInlineDecorations, RevealedLines } from '../../renderer/src/editor/live-preview/decorations';
import { linesOf, scanGitbookBlocks } from '../../renderer/src/editor/live-preview/gitbook-blocks';
import {
  integrationBlocksFacet,
  type BlockRender,
  type BlockRenderInput,
  type IntegrationBlocksCatalog,
  type SpaceIntegrationBlocks,
} from '../../renderer/src/editor/integrations/catalog';
import { blockHtml, IntegrationBlockWidget } from '../../renderer/src/editor/integrations/block-widget';
import { integrationMenuItems, INTEGRATIONS_SECTION } from '../../renderer/src/editor/integrations/menu';
import { BLOCK_ITEMS } from '../../renderer/src/editor/authoring/blocks';
import { applySlashItem, filterBlocks } from '../../renderer/src/editor/authoring/slash-menu';

/** Integration blocks in the editor: the `/` menu's group, the tag it inserts, and the live preview's widget. */

const INSTALLED: SpaceIntegrationBlocks[] = [
  {
    name: 'charts',
    blocks: [
      { id: 'chart', title: 'Chart', description: 'A chart from your data' },
      { id: 'table', title: 'Data table' },
    ],
  },
];

/** A catalog answering from memory (the editor's view of the space's integrations, without a server). */
function memoryCatalog(render: BlockRender): IntegrationBlocksCatalog & { asked: BlockRenderInput[] } {
  const asked: BlockRenderInput[] = [];
  return {
    asked,
    installed: () => INSTALLED,
    title: (i, b) => INSTALLED.find((x) => x.name === i)?.blocks.find((x) => x.id === b)?.title,
    rendered: (input) => (asked.push(input), render),
    act: (input) => (asked.push(input), Promise.resolve(render)),
    subscribe: () => () => undefined,
  };
}

function widgetsOf(doc: string, catalog: IntegrationBlocksCatalog, cursor = doc.length): IntegrationBlockWidget[] {
  const state = EditorState.create({
    doc,
    selection: { anchor: cursor },
    extensions: [markdown({ base: markdownLanguage }), integrationBlocksFacet.of(catalog)],
  });
  ensureSyntaxTree(state, state.doc.length, 5000);
  const deco = buildInlineDecorations(
    state,
    [{ from: 0, to: state.doc.length }],
    RevealedLines.of(state, state.selection.ranges),
    scanGitbookBlocks(linesOf(doc)),
    { resolveFile: () => undefined, openPage: () => undefined },
  );
  return deco
    .map((r) => (r.value as Decoration).spec.widget as unknown)
    .filter((w): w is IntegrationBlockWidget => w instanceof IntegrationBlockWidget);
}

describe('the `/` menu lists installed integrations’ blocks', () => {
  const items = integrationMenuItems(INSTALLED);

  it('one item per block, in the Integrations group, inserting its tag', () => {
    expect(items.map((i) => [i.label, i.detail, i.section])).toEqual([
      ['Chart', 'A chart from your data', INTEGRATIONS_SECTION],
      ['Data table', 'From charts', INTEGRATIONS_SECTION],
    ]);
    // Found by title and by integration name, after the built-in blocks.
    expect(filterBlocks('chart', [...BLOCK_ITEMS, ...items])[0]?.label).toBe('Chart');
    expect(filterBlocks('charts', [...BLOCK_ITEMS, ...items]).map((i) => i.label)).toEqual(['Chart', 'Data table']);
    const state = EditorState.create({ doc: 'Intro\n\n/cha' });
    const spec = applySlashItem(state, items[0]!, 7, 11)!;
    const after = state.update(spec).state;
    expect(after.doc.toString()).toMatch(/^Intro\n\n\{% @charts\/chart %\}\n\n/);
    // The cursor a blank line below the tag (the block shows rendered; what is typed next is a paragraph of its own).
    const line = after.doc.lineAt(after.selection.main.head);
    expect(line.text).toBe('');
    expect(after.doc.line(line.number - 1).text).toBe('');
    expect(after.doc.line(line.number - 2).text).toBe('{% @charts/chart %}');
  });
});

describe('the live preview draws integration blocks', () => {
  const ok: BlockRender = {
    status: 'ok',
    element: { type: 'block', children: [{ type: 'button', label: 'Refresh', onPress: { action: 'refresh' } }] },
    state: {},
    props: {},
  };

  it('renders a tag line through the catalog, with its manifest title', () => {
    const catalog = memoryCatalog(ok);
    const widgets = widgetsOf('Text\n\n{% @charts/chart range="7d" %}\n\nMore', catalog, 0);
    expect(widgets).toHaveLength(1);
    expect(widgets[0]!.title).toBe('Chart');
    expect(widgets[0]!.ref).toEqual({ integration: 'charts', block: 'chart', props: { range: '7d' } });
    expect(catalog.asked).toEqual([{ integration: 'charts', block: 'chart', props: { range: '7d' } }]);
  });

  it('leaves the tag as source under the cursor, and in code', () => {
    const doc = 'Text\n\n{% @charts/chart %}\n\n```\n{% @charts/chart %}\n```';
    expect(widgetsOf(doc, memoryCatalog(ok), 8)).toHaveLength(0);
    expect(widgetsOf(doc, memoryCatalog(ok), 0)).toHaveLength(1);
  });

  it('draws interactive ContentKit, or a placeholder saying why to the editor', () => {
    expect(blockHtml('Chart', ok)).toContain('data-ck-action="{&#34;action&#34;:&#34;refresh&#34;}"');
    const failed = blockHtml('Chart <b>', { status: 'error', message: 'The integration "x" is not installed <here>' });
    expect(failed).toContain('<strong>Chart &#60;b&#62;</strong>');
    expect(failed).toContain('is not installed &#60;here&#62;');
    expect(blockHtml('Chart', { status: 'loading' })).toContain('Rendering…');
  });
});
