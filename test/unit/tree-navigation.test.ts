import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc';
import { moveDestinations } from '../../renderer/src/page-header/move-destinations';
import { PAGE_EMOJI } from '../../renderer/src/page-header/emoji-picker';
import { TreeModel } from '../../renderer/src/tree/tree-model';
import { treeKeyAction, type VisibleRow } from '../../renderer/src/tree/tree-keys';

/** The page tree's keyboard model (WAI-ARIA tree), "Move to…" destinations, and the emoji offered. */

// A (expanded) > A1, A2 ; B (collapsed, has children) ; C (leaf)
const rows: VisibleRow[] = [
  { id: 'A', parent: null, hasChildren: true, expanded: true },
  { id: 'A1', parent: 'A', hasChildren: false, expanded: false },
  { id: 'A2', parent: 'A', hasChildren: false, expanded: false },
  { id: 'B', parent: null, hasChildren: true, expanded: false },
  { id: 'C', parent: null, hasChildren: false, expanded: false },
];

describe('tree keyboard navigation', () => {
  it('moves through visible rows with ↑ ↓ Home End, stopping at the ends', () => {
    expect(treeKeyAction(rows, 'A', 'ArrowDown')).toEqual({ kind: 'focus', id: 'A1' });
    expect(treeKeyAction(rows, 'A2', 'ArrowDown')).toEqual({ kind: 'focus', id: 'B' });
    expect(treeKeyAction(rows, 'B', 'ArrowUp')).toEqual({ kind: 'focus', id: 'A2' });
    expect(treeKeyAction(rows, 'C', 'ArrowDown')).toBeUndefined();
    expect(treeKeyAction(rows, 'A', 'ArrowUp')).toBeUndefined();
    expect(treeKeyAction(rows, 'B', 'Home')).toEqual({ kind: 'focus', id: 'A' });
    expect(treeKeyAction(rows, 'A1', 'End')).toEqual({ kind: 'focus', id: 'C' });
  });

  it('→ expands a collapsed row, then enters its first child; on a leaf it does nothing', () => {
    expect(treeKeyAction(rows, 'B', 'ArrowRight')).toEqual({ kind: 'expand', id: 'B' });
    expect(treeKeyAction(rows, 'A', 'ArrowRight')).toEqual({ kind: 'focus', id: 'A1' });
    expect(treeKeyAction(rows, 'C', 'ArrowRight')).toBeUndefined();
  });

  it('← collapses an expanded row, else goes to the parent', () => {
    expect(treeKeyAction(rows, 'A', 'ArrowLeft')).toEqual({ kind: 'collapse', id: 'A' });
    expect(treeKeyAction(rows, 'A2', 'ArrowLeft')).toEqual({ kind: 'focus', id: 'A' });
    expect(treeKeyAction(rows, 'B', 'ArrowLeft')).toBeUndefined();
  });

  it('Enter opens; other keys and unknown rows do nothing', () => {
    expect(treeKeyAction(rows, 'A1', 'Enter')).toEqual({ kind: 'open', id: 'A1' });
    expect(treeKeyAction(rows, 'A1', 'x')).toBeUndefined();
    expect(treeKeyAction(rows, 'nope', 'ArrowDown')).toBeUndefined();
  });
});

describe('move destinations', () => {
  function space() {
    const c = new ContentDoc(new Y.Doc());
    const group = c.createPage({ title: 'Section', kind: 'group' });
    const guides = c.createPage({ title: 'Guides', parent: group, emoji: '📘' });
    const install = c.createPage({ title: 'Install', parent: guides });
    const linux = c.createPage({ title: 'Linux', parent: install });
    const link = c.createPage({ title: 'Website', kind: 'link', href: 'https://example.com' });
    const faq = c.createPage({ title: 'FAQ' });
    return { model: new TreeModel(c.ydoc), group, guides, install, linux, link, faq };
  }

  it('offers the top level and every page but the page itself, its sub-pages and links, indented', () => {
    const { model, group, guides, faq, install } = space();
    const list = moveDestinations(model, install);
    expect(list.map((d) => [d.parent, d.depth, d.current])).toEqual([
      [null, 0, false],
      [group, 1, false],
      [guides, 2, true],
      [faq, 1, false],
    ]);
    expect(list[2]).toMatchObject({ title: 'Guides', emoji: '📘' });
  });

  it('offers only the top level for a group', () => {
    const { model, group } = space();
    expect(moveDestinations(model, group)).toEqual([{ parent: null, title: 'Top level', depth: 0, current: true }]);
  });
});

describe('emoji picker', () => {
  it('offers only emoji the document model (and GitBook) accept', () => {
    const c = new ContentDoc(new Y.Doc());
    const id = c.createPage({ title: 'Page' });
    expect(new Set(PAGE_EMOJI).size).toBe(PAGE_EMOJI.length);
    for (const emoji of PAGE_EMOJI) expect(() => c.updatePage(id, { emoji })).not.toThrow();
  });
});
