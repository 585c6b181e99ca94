import { describe, expect, it } from 'vitest';
import { EditorSelection, EditorState } from '@codemirror/state';
import { markdown } from '@codemirror/lang-markdown';
import { BLOCK_ITEMS, commandOf, hintTemplate, keyLabel } from '../../renderer/src/editor/authoring/blocks';
import {
  CURSOR,
  insertBlock,
  insertLink,
  lineKind,
  parseTemplate,
  setLineKind,
  toggleInline,
  type StateCommand,
} from '../../renderer/src/editor/authoring/commands';
import { applySlashItem, filterBlocks, slashQueryAt } from '../../renderer/src/editor/authoring/slash-menu';
import {
  matchPages,
  pageLinkMarkdown,
  pageLinkQueryAt,
} from '../../renderer/src/editor/authoring/page-link-completion';

/**
 * The authoring commands are pure functions of an EditorState: these tests
 * write `|` for the cursor and `[…]` for a selection, run a command, and read
 * the document and selection back the same way.
 */

function state(marked: string): EditorState {
  const open = marked.indexOf('[');
  const close = marked.indexOf(']');
  const bar = marked.indexOf('|');
  let doc = marked;
  let selection: EditorSelection;
  if (bar >= 0) {
    doc = marked.replace('|', '');
    selection = EditorSelection.single(bar);
  } else if (open >= 0 && close > open) {
    doc = marked.slice(0, open) + marked.slice(open + 1, close) + marked.slice(close + 1);
    selection = EditorSelection.single(open, close - 1);
  } else selection = EditorSelection.single(doc.length);
  return EditorState.create({ doc, selection, extensions: [markdown()] });
}

function show(s: EditorState): string {
  const { from, to } = s.selection.main;
  const doc = s.doc.toString();
  if (from === to) return `${doc.slice(0, from)}|${doc.slice(from)}`;
  return `${doc.slice(0, from)}[${doc.slice(from, to)}]${doc.slice(to)}`;
}

function run(command: StateCommand, marked: string): string {
  const before = state(marked);
  const spec = command(before);
  if (!spec) return 'null';
  return show(before.update(spec).state);
}

describe('inline formatting', () => {
  it('wraps a selection and unwraps it again', () => {
    expect(run(toggleInline('**', 'bold'), 'say [hello] now')).toBe('say **[hello]** now');
    expect(run(toggleInline('**', 'bold'), 'say **[hello]** now')).toBe('say [hello] now');
    expect(run(toggleInline('**', 'bold'), 'say [**hello**] now')).toBe('say [hello] now');
    expect(run(toggleInline('~~', 'x'), '[gone]')).toBe('~~[gone]~~');
    expect(run(toggleInline('`', 'code'), 'call [f()]')).toBe('call `[f()]`');
  });

  it('inserts a selected placeholder at an empty cursor', () => {
    expect(run(toggleInline('_', 'italic text'), 'a |b')).toBe('a _[italic text]_b');
  });

  it('makes links with the URL (or the text) selected to be typed over', () => {
    expect(run(insertLink, 'see [the docs]')).toBe('see [the docs]([https://])');
    expect(run(insertLink, 'see |')).toBe('see [[link text]](https://)');
  });
});

describe('line kinds', () => {
  it('sets, replaces and toggles off heading and list prefixes', () => {
    expect(run(setLineKind('h2'), 'Title|')).toBe('## Title|');
    expect(run(setLineKind('h2'), '## Title|')).toBe('Title|');
    expect(run(setLineKind('h1'), '### Title|')).toBe('# Title|');
    expect(run(setLineKind('bullet'), '1. item|')).toBe('- item|');
    expect(run(setLineKind('task'), '- item|')).toBe('- [ ] item|');
    expect(run(setLineKind('quote'), 'wise words|')).toBe('> wise words|');
  });

  it('numbers every selected line', () => {
    expect(run(setLineKind('numbered'), '[one\ntwo\nthree]')).toBe('[1. one\n2. two\n3. three]');
  });

  it('puts the cursor after the prefix on an empty line', () => {
    expect(run(setLineKind('bullet'), 'a\n|')).toBe('a\n- |');
  });

  it('reads the kind of a line', () => {
    expect(['# a', '#### d', '- x', '* x', '3) x', '- [x] done', '> q', 'plain'].map(lineKind)).toEqual([
      'h1',
      'h4',
      'bullet',
      'bullet',
      'numbered',
      'task',
      'quote',
      'paragraph',
    ]);
  });
});

describe('blocks', () => {
  it('parses template selection marks', () => {
    expect(parseTemplate(`a${CURSOR}bc${CURSOR}d`)).toEqual({ text: 'abcd', anchor: 1, head: 3 });
    expect(parseTemplate(`ab${CURSOR}`)).toEqual({ text: 'ab', anchor: 2, head: 2 });
  });

  it('inserts a GitBook hint on lines of its own, its text selected', () => {
    expect(run(insertBlock(hintTemplate('info')), 'Intro|')).toBe(
      'Intro\n\n{% hint style="info" %}\n[Write the hint here.]\n{% endhint %}\n',
    );
    expect(run(insertBlock(hintTemplate('warning')), 'Intro\n|')).toBe(
      'Intro\n\n{% hint style="warning" %}\n[Write the hint here.]\n{% endhint %}\n',
    );
  });

  it('puts the selected text in the block', () => {
    expect(run(insertBlock(hintTemplate('danger')), '[Careful]')).toBe(
      '{% hint style="danger" %}\n[Careful]\n{% endhint %}\n',
    );
  });

  it('keeps blank lines between a block and the text after it', () => {
    expect(run(insertBlock(`---\n${CURSOR}`), 'a\n|\nb')).toBe('a\n\n---\n|\n\nb');
  });

  it('writes every block as GitBook writes it', () => {
    const insert = (id: string) => {
      const item = BLOCK_ITEMS.find((i) => i.id === id)!;
      const s = state('');
      return s.update(commandOf(item)!(s)!).state.doc.toString();
    };
    expect(insert('tabs')).toBe(
      '{% tabs %}\n{% tab title="Tab 1" %}\nContent of the first tab.\n{% endtab %}\n\n{% tab title="Tab 2" %}\nContent of the second tab.\n{% endtab %}\n{% endtabs %}\n',
    );
    expect(insert('expandable')).toBe(
      '<details>\n\n<summary>Title</summary>\n\nContent shown when expanded.\n\n</details>\n',
    );
    expect(insert('embed')).toBe('{% embed url="https://" %}\n');
    expect(insert('content-ref')).toBe('{% content-ref url="page.md" %}\n[page.md](page.md)\n{% endcontent-ref %}\n');
    expect(insert('file')).toBe('{% file src="https://" %}\n');
    expect(insert('cards')).toMatch(/^<table data-view="cards"><thead>.*data-card-target.*<\/table>\n$/);
    expect(insert('codeblock')).toBe('```\n\n```\n');
    expect(insert('table')).toBe('| Column 1 | Column 2 |\n| -------- | -------- |\n|          |          |\n');
  });

  it('labels shortcuts per platform', () => {
    expect(keyLabel('Mod-Alt-k', false)).toBe('Ctrl+Alt+K');
    expect(keyLabel('Mod-b', true)).toBe('⌘B');
  });
});

describe('the / menu', () => {
  it('opens at a line start or after a space, not inside words, URLs or code', () => {
    expect(slashQueryAt(state('/hea|'), 4)).toEqual({ from: 0, query: 'hea' });
    expect(slashQueryAt(state('text /ta|'), 8)).toEqual({ from: 5, query: 'ta' });
    expect(slashQueryAt(state('and/or|'), 6)).toBeNull();
    expect(slashQueryAt(state('https://x|'), 9)).toBeNull();
    expect(slashQueryAt(state('```\n/x|\n```'), 6)).toBeNull();
  });

  it('filters blocks by label, id and keywords, best first', () => {
    expect(filterBlocks('head').map((i) => i.id)).toEqual(['h1', 'h2', 'h3']);
    expect(filterBlocks('callout')[0]!.id).toBe('hint');
    expect(filterBlocks('tab').map((i) => i.id)).toEqual(['table', 'tabs']);
    expect(filterBlocks('zzz')).toEqual([]);
    expect(filterBlocks('')).toHaveLength(BLOCK_ITEMS.length);
  });

  it('replaces the query with a line prefix or a block', () => {
    const h2 = BLOCK_ITEMS.find((i) => i.id === 'h2')!;
    const s = state('Title /h2|');
    expect(show(s.update(applySlashItem(s, h2, 6, 9)!).state)).toBe('## Title|');
    const bullet = BLOCK_ITEMS.find((i) => i.id === 'bullet')!;
    const empty = state('/bul|');
    expect(show(empty.update(applySlashItem(empty, bullet, 0, 4)!).state)).toBe('- |');
    const table = BLOCK_ITEMS.find((i) => i.id === 'table')!;
    const t = state('Intro\n/table|');
    expect(t.update(applySlashItem(t, table, 6, 12)!).state.doc.toString()).toBe(
      'Intro\n\n| Column 1 | Column 2 |\n| -------- | -------- |\n|          |          |\n',
    );
  });
});

describe('page links', () => {
  const pages = [
    { id: 'p1', title: 'Getting started' },
    { id: 'p2', title: 'API reference', path: 'Guides' },
    { id: 'p3', title: 'Start here [draft]' },
  ];

  it('opens after [[ anywhere and after @ at a word start', () => {
    expect(pageLinkQueryAt(state('see [[Get|'), 9)).toEqual({ from: 4, query: 'Get' });
    expect(pageLinkQueryAt(state('ask @api|'), 8)).toEqual({ from: 4, query: 'api' });
    expect(pageLinkQueryAt(state('me@example|'), 10)).toBeNull();
  });

  it('matches titles by word start, then anywhere', () => {
    expect(matchPages('start', pages).map((p) => p.id)).toEqual(['p3', 'p1']);
    expect(matchPages('ref', pages).map((p) => p.id)).toEqual(['p2']);
    expect(matchPages('', pages)).toHaveLength(3);
  });

  it('writes the canonical internal link, escaping brackets in titles', () => {
    expect(pageLinkMarkdown(pages[0]!)).toBe('[Getting started](/pages/p1)');
    expect(pageLinkMarkdown(pages[2]!)).toBe('[Start here \\[draft\\]](/pages/p3)');
  });
});
