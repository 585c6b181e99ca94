import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree, foldable, foldedRanges, foldEffect, unfoldEffect } from '@codemirror/language';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import type { Decoration } from '@codemirror/view';
import { buildInlineDecorations, hideSyntax, RevealedLines } from '../../renderer/src/editor/live-preview/decorations';
import {
  activeTabIndex,
  linesOf,
  parseTagLine,
  scanGitbookBlocks,
} from '../../renderer/src/editor/live-preview/gitbook-blocks';
import { inlinePieces, parseTable, splitRow } from '../../renderer/src/editor/live-preview/markdown-table';
import {
  blockWidgetsField,
  gitbookBlocksField,
  refreshLivePreview,
  remoteCaretsField,
} from '../../renderer/src/editor/live-preview/block-fields';
import { expandableFolding, expandableFoldRange, isFolded } from '../../renderer/src/editor/live-preview/folding';
import { CheckboxWidget, ExpandableHeaderWidget } from '../../renderer/src/editor/live-preview/widgets';
import {
  findHtmlImages,
  parseMarkdownImage,
  safeUrl,
  sizedImageSource,
} from '../../renderer/src/editor/live-preview/image-source';

/** Live preview's pure parts: what is hidden for a document and cursor, and GitBook block parsing. */

function decorate(doc: string, cursor: number) {
  const state = EditorState.create({
    doc,
    selection: { anchor: cursor },
    extensions: [markdown({ base: markdownLanguage })],
  });
  ensureSyntaxTree(state, state.doc.length, 5000);
  const revealed = RevealedLines.of(state, state.selection.ranges);
  const blocks = scanGitbookBlocks(linesOf(doc));
  const ranges = buildInlineDecorations(state, [{ from: 0, to: doc.length }], revealed, blocks, {
    resolveFile: (src) => (src.startsWith('/files/') ? undefined : src),
    openPage: () => undefined,
  });
  const slice = (r: { from: number; to: number }) => doc.slice(r.from, r.to);
  const replaced = ranges.filter((r) => r.from < r.to && (r.value as Decoration & { point?: boolean }).point);
  return {
    hidden: ranges.filter((r) => r.value === hideSyntax).map(slice),
    widgets: replaced
      .filter((r) => r.value !== hideSyntax)
      .map((r) => [slice(r), r.value.spec.widget?.constructor.name]),
    lineClasses: ranges
      .filter((r) => r.from === r.to && r.value.spec.class && !r.value.spec.widget)
      .map((r) => [state.doc.lineAt(r.from).number, r.value.spec.class as string]),
  };
}

describe('live preview decorations', () => {
  const doc = [
    '# Title',
    '',
    'Some *em* and **strong** and `code` and [a link](https://x.test).',
    '',
    '- item',
    '- [ ] task',
  ].join('\n');

  it('hides heading, emphasis, code and link syntax away from the cursor', () => {
    const { hidden, widgets } = decorate(doc, doc.length); // cursor on the last line
    expect(hidden).toEqual(expect.arrayContaining(['# ', '*', '**', '`', '[', '](https://x.test)']));
    expect(widgets).toEqual([['-', 'BulletWidget']]); // the task line holds the cursor: raw
  });

  it('shows the raw syntax of the line holding the cursor', () => {
    const line3 = doc.indexOf('Some');
    const { hidden } = decorate(doc, line3 + 2);
    expect(hidden).toContain('# ');
    expect(hidden).not.toContain('**');
    expect(hidden).not.toContain('](https://x.test)');
  });

  it('draws a checkbox for a task away from the cursor and raw `[ ]` on its line', () => {
    expect(decorate(doc, 0).widgets).toContainEqual(['[ ]', 'CheckboxWidget']);
    expect(decorate(doc, doc.length).widgets.map((w) => w[1])).not.toContain('CheckboxWidget');
  });

  it('sizes headings on every line, cursor or not', () => {
    expect(decorate(doc, 0).lineClasses).toContainEqual([1, 'cm-lp-h cm-lp-h1']);
  });

  it('hides code fences and labels the language only when the cursor is outside the block', () => {
    const code = 'Text\n\n```js\nconst a = 1;\n```\n';
    expect(decorate(code, 0).widgets).toContainEqual(['```js', 'CodeLabelWidget']);
    expect(decorate(code, 0).hidden).toContain('```');
    expect(decorate(code, code.indexOf('const')).widgets).toEqual([]);
  });

  it('replaces an image with an image widget, and keeps the source beside it on the cursor line', () => {
    const img = 'Intro\n\n![Diagram](https://x.test/d.png)';
    expect(decorate(img, 0).widgets).toContainEqual(['![Diagram](https://x.test/d.png)', 'ImageWidget']);
    expect(decorate(img, img.length).widgets).toEqual([]);
  });

  it('colours a hint body with line decorations and hides its tags', () => {
    const hint = 'Intro\n{% hint style="warning" %}\nCareful **now**.\n{% endhint %}\n';
    const { widgets, hidden, lineClasses } = decorate(hint, 0);
    expect(widgets).toContainEqual(['{% hint style="warning" %}', 'HintHeaderWidget']);
    expect(hidden).toContain('{% endhint %}');
    expect(lineClasses).toContainEqual([3, 'cm-lp-hint cm-lp-hint-warning']);
    expect(hidden).toContain('**'); // the body is rendered too, and stays text (no replace over it)
    expect(widgets.map((w) => w[0])).not.toContain('Careful **now**.');
  });

  it('draws the tab strip over {% tabs %} and hides the tab tags', () => {
    const tabs =
      'x\n{% tabs %}\n{% tab title="One" %}\nA\n{% endtab %}\n{% tab title="Two" %}\nB\n{% endtab %}\n{% endtabs %}';
    const { widgets, hidden } = decorate(tabs, 0);
    expect(widgets).toContainEqual(['{% tabs %}', 'TabStripWidget']);
    expect(hidden).toEqual(expect.arrayContaining(['{% tab title="Two" %}', '{% endtab %}', '{% endtabs %}']));
  });

  it('shows the tab holding the cursor', () => {
    const tabs =
      '{% tabs %}\n{% tab title="One" %}\nA\n{% endtab %}\n{% tab title="Two" %}\nB\n{% endtab %}\n{% endtabs %}';
    const [block] = scanGitbookBlocks(linesOf(tabs));
    expect(activeTabIndex(block!, tabs.indexOf('B'))).toBe(1);
    expect(activeTabIndex(block!, tabs.indexOf('A'))).toBe(0);
    expect(activeTabIndex(block!, tabs.length + 5)).toBe(0);
  });
});

describe('GitBook block parsing', () => {
  it('parses tag lines with attributes', () => {
    expect(parseTagLine({ from: 10, text: '{% hint style="success" %}' })).toMatchObject({
      name: 'hint',
      closing: false,
      attrs: { style: 'success' },
      from: 10,
    });
    expect(parseTagLine({ from: 0, text: '{% endhint %}' })).toMatchObject({ name: 'hint', closing: true });
    expect(parseTagLine({ from: 0, text: '{% file src="/files/abc" %}Report{% endfile %}' })).toMatchObject({
      name: 'file',
      rest: 'Report',
      closedOnLine: true,
    });
    expect(parseTagLine({ from: 0, text: 'Plain text' })).toBeUndefined();
  });

  it('pairs nested blocks, tabs and details summaries', () => {
    const text = [
      '{% tabs %}',
      '{% tab title="macOS" %}',
      '{% hint style="info" %}',
      'Hi',
      '{% endhint %}',
      '{% endtab %}',
      '{% endtabs %}',
      '<details>',
      '<summary>More</summary>',
      'Body',
      '</details>',
      '{% embed url="https://example.com" %}',
      '{% content-ref url="/pages/p1" %}',
      '[Page](/pages/p1)',
      '{% endcontent-ref %}',
    ].join('\n');
    const blocks = scanGitbookBlocks(linesOf(text));
    expect(blocks.map((b) => b.kind)).toEqual(['tabs', 'tab', 'hint', 'details', 'embed', 'content-ref']);
    expect(blocks[0]!.tabs.map((t) => t.attrs.title)).toEqual(['macOS']);
    expect(blocks[3]!.summary?.rest).toBe('More');
    expect(blocks[4]!.close).toBeUndefined(); // a bare embed stands alone
    expect(blocks[5]!.attrs.url).toBe('/pages/p1');
  });

  it('ignores an unclosed hint (being typed)', () => {
    expect(scanGitbookBlocks(linesOf('{% hint style="info" %}\ntext'))).toEqual([]);
  });
});

describe('tables and images', () => {
  it('parses a GFM table with alignment and escaped pipes', () => {
    expect(parseTable('| A | B |\n|:--|--:|\n| 1 \\| 2 | `x|y` |')).toEqual({
      header: ['A', 'B'],
      aligns: ['left', 'right'],
      rows: [['1 | 2', '`x|y`']],
    });
    expect(splitRow('a | b')).toEqual(['a', 'b']);
    expect(inlinePieces('**b** and `c`')).toEqual([
      { text: 'b', style: 'strong' },
      { text: ' and ' },
      { text: 'c', style: 'code' },
    ]);
  });

  it('reads and writes image sources', () => {
    expect(parseMarkdownImage('![Alt](/files/abc "t")')).toEqual({ alt: 'Alt', src: '/files/abc' });
    expect(findHtmlImages('<img src="/files/abc" alt="A" width="320">')).toMatchObject([
      { src: '/files/abc', alt: 'A', width: 320 },
    ]);
    expect(sizedImageSource({ src: '/files/abc', alt: 'A "q"' }, 319.6)).toBe(
      '<img src="/files/abc" alt="A &quot;q&quot;" width="320">',
    );
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('https://x.test/a.png')).toBe('https://x.test/a.png');
  });
});

describe('block widgets (tables, cards, tabs)', () => {
  function blockRanges(doc: string, cursor: number): string[] {
    let state = EditorState.create({
      doc,
      selection: { anchor: cursor },
      extensions: [markdown({ base: markdownLanguage }), gitbookBlocksField, remoteCaretsField, blockWidgetsField],
    });
    ensureSyntaxTree(state, state.doc.length, 5000);
    state = state.update({ effects: refreshLivePreview.of(null) }).state; // rebuild over the complete tree
    const out: string[] = [];
    state.field(blockWidgetsField).deco.between(0, doc.length, (from, to, deco) => {
      out.push(`${deco.spec.widget?.constructor.name ?? 'fold'}:${doc.slice(from, to)}`);
    });
    return out;
  }
  const table = '| A | B |\n| --- | --- |\n| 1 | 2 |';
  const cards = '<table data-view="cards"><tbody><tr><td>X</td></tr></tbody></table>';

  it('renders a table and cards when the cursor is outside them, and leaves them source when inside', () => {
    const doc = `Intro\n\n${table}\n\n${cards}\n\nEnd`;
    expect(blockRanges(doc, 0)).toEqual([`TableWidget:${table}`, `CardsWidget:${cards}`]);
    expect(blockRanges(doc, doc.indexOf('| 1'))).toEqual([`CardsWidget:${cards}`]);
  });

  it('folds the tabs other than the one holding the cursor', () => {
    const doc =
      'x\n{% tabs %}\n{% tab title="One" %}\nA\n{% endtab %}\n{% tab title="Two" %}\nB\n{% endtab %}\n{% endtabs %}';
    expect(blockRanges(doc, 0)).toEqual(['fold:{% tab title="Two" %}\nB\n{% endtab %}']);
    expect(blockRanges(doc, doc.indexOf('B'))).toEqual(['fold:{% tab title="One" %}\nA\n{% endtab %}']);
  });

  it('maps rendered tables through prose edits and rebuilds when an edit makes a table', () => {
    const doc = `Intro\n\n${table}\n\nEnd`;
    let state = EditorState.create({
      doc,
      extensions: [markdown({ base: markdownLanguage }), gitbookBlocksField, remoteCaretsField, blockWidgetsField],
    });
    ensureSyntaxTree(state, state.doc.length, 5000);
    state = state.update({ effects: refreshLivePreview.of(null) }).state;
    const drawn = (s: EditorState) => {
      const out: string[] = [];
      s.field(blockWidgetsField).deco.between(0, s.doc.length, (from, to) => {
        out.push(s.doc.sliceString(from, to));
      });
      return out;
    };
    state = state.update({ changes: { from: 0, insert: 'More ' }, selection: { anchor: 5 } }).state; // prose: mapped
    expect(drawn(state)).toEqual([table]);
    state = state.update({ selection: { anchor: state.doc.toString().indexOf('| 1') } }).state; // into the table
    expect(drawn(state)).toEqual([]);
    const second = '| X |\n| - |\n| y |';
    state = state.update({
      changes: { from: state.doc.length, insert: `\n\n${second}` },
      selection: { anchor: 0 },
    }).state;
    ensureSyntaxTree(state, state.doc.length, 5000);
    expect(drawn(state)).toEqual([table, second]);
  });

  it('keeps GitBook block positions right through edits that do not touch a tag', () => {
    const doc = 'Intro\n{% hint style="info" %}\nBody\n{% endhint %}';
    const state = EditorState.create({ doc, extensions: [gitbookBlocksField] });
    const edited = state.update({ changes: { from: 0, insert: 'More ' } }).state;
    const [hint] = edited.field(gitbookBlocksField);
    expect(edited.doc.sliceString(hint!.open.from, hint!.open.to)).toBe('{% hint style="info" %}');
    expect(edited.doc.sliceString(hint!.close!.from, hint!.close!.to)).toBe('{% endhint %}');
    const retagged = edited.update({
      changes: { from: edited.doc.length - 3, to: edited.doc.length, insert: 'x %}' },
    }).state;
    expect(retagged.field(gitbookBlocksField)).toEqual([]); // `{% endhintx %}` closes nothing any more
  });
});

describe('expandable folding', () => {
  const doc = [
    'Intro',
    '<details>',
    '<summary>More</summary>',
    '',
    'Hidden body.',
    '',
    '</details>',
    '{% expandable title="Advanced" %}',
    'Deep text.',
    '{% endexpandable %}',
    '<details>',
    '</details>',
    'End',
  ].join('\n');
  const stateOf = (text: string) => {
    const state = EditorState.create({
      doc: text,
      extensions: [markdown({ base: markdownLanguage }), gitbookBlocksField, expandableFolding()],
    });
    ensureSyntaxTree(state, state.doc.length, 5000);
    return state;
  };

  it('offers each expandable’s body (summary included) as a fold range, and nothing for an empty one', () => {
    const state = stateOf(doc);
    const fold = (n: number) => {
      const line = state.doc.line(n);
      const range = foldable(state, line.from, line.to);
      return range && state.doc.sliceString(range.from, range.to);
    };
    expect(fold(2)).toBe('\n<summary>More</summary>\n\nHidden body.\n');
    expect(fold(8)).toBe('\nDeep text.');
    const empty = state.field(gitbookBlocksField).find((b) => b.open.from === state.doc.line(11).from)!;
    expect(expandableFoldRange(state.doc, empty)).toBeNull(); // nothing between <details> and </details>
  });

  it('folds without changing the text, and the header shows the folded state', () => {
    let state = stateOf(doc);
    const blocks = state.field(gitbookBlocksField);
    const details = blocks.find((b) => b.kind === 'details')!;
    const range = expandableFoldRange(state.doc, details)!;
    const header = (s: EditorState) => {
      const ranges = buildInlineDecorations(
        s,
        [{ from: 0, to: s.doc.length }],
        new RevealedLines([s.doc.lineAt(s.doc.length).number]),
        s.field(gitbookBlocksField),
        { resolveFile: () => undefined, openPage: () => undefined },
      );
      return ranges.map((r) => r.value.spec.widget).find((w) => w instanceof ExpandableHeaderWidget);
    };
    expect(header(state)).toMatchObject({ title: 'More', folded: false });
    const folded = state.update({ effects: foldEffect.of(range) });
    expect(folded.docChanged).toBe(false);
    state = folded.state;
    expect(state.doc.toString()).toBe(doc);
    expect(isFolded(state, range)).toBe(true);
    expect(header(state)).toMatchObject({ title: 'More', folded: true });
    // An edit above maps the fold with the text.
    state = state.update({ changes: { from: 0, insert: 'New line\n' } }).state;
    expect(foldedRanges(state).size).toBe(1);
    state = state.update({
      effects: unfoldEffect.of(expandableFoldRange(state.doc, state.field(gitbookBlocksField)[0]!)!),
    }).state;
    expect(foldedRanges(state).size).toBe(0);
    expect(state.doc.toString()).toBe(`New line\n${doc}`);
  });

  it('names a task checkbox by its text', () => {
    const tasks = 'Intro\n\n- [ ] Write **the** docs\n- [x] Ship it\n\nEnd';
    const state = stateOf(tasks);
    const ranges = buildInlineDecorations(
      state,
      [{ from: 0, to: tasks.length }],
      new RevealedLines([1]),
      state.field(gitbookBlocksField),
      { resolveFile: () => undefined, openPage: () => undefined },
    );
    const boxes = ranges.map((r) => r.value.spec.widget).filter((w) => w instanceof CheckboxWidget);
    expect(boxes.map((b) => [b.label, b.checked])).toEqual([
      ['Write the docs', false],
      ['Ship it', true],
    ]);
  });
});
