import { StateEffect, StateField, type EditorState, type Range, type Transaction } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { syntaxTree } from '@codemirror/language';
import { activeTabIndex, mayHoldTag, scanGitbookBlocks, type GitbookBlock, type SourceLine } from './gitbook-blocks';
import { CardsWidget, TableWidget } from './widgets';

/**
 * The document-wide parts of live preview, kept in state fields:
 * - where GitBook's blocks are (a hint opened above the viewport still
 *   colours the visible lines of its body). Rescanned only when an edit
 *   touches a tag line; otherwise positions are mapped through the edit.
 * - tables and cards rendered as block widgets when the cursor is outside
 *   them. CodeMirror only accepts decorations that replace line breaks from
 *   a state field, not from a view plugin.
 */

/** Forces a rebuild (an image's URL became known). */
export const refreshLivePreview = StateEffect.define<null>();

function* docLines(state: EditorState): Generator<SourceLine> {
  let from = 0;
  for (const iter = state.doc.iterLines(); !iter.next().done;) {
    yield { from, text: iter.value };
    from += iter.value.length + 1;
  }
}

/** Every line the changes of `tr` touch may hold a tag (old or new text): then the blocks are rescanned. */
function touchesTags(tr: Transaction, blocks: readonly GitbookBlock[]): boolean {
  let touches = false;
  tr.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    if (touches) return;
    const doc = tr.state.doc;
    if (mayHoldTag(doc.sliceString(doc.lineAt(fromB).from, doc.lineAt(toB).to))) touches = true;
    for (const b of blocks) {
      const tags = [b.open, b.close, b.summary, ...b.tabs];
      if (tags.some((t) => t && t.from <= toA && t.to >= fromA)) touches = true;
    }
  });
  return touches;
}

function mapBlocks(blocks: readonly GitbookBlock[], tr: Transaction): GitbookBlock[] {
  const map = (pos: number, assoc = -1) => tr.changes.mapPos(pos, assoc);
  const tag = <T extends { from: number; to: number }>(t: T): T => ({ ...t, from: map(t.from), to: map(t.to, 1) });
  return blocks.map((b) => ({
    ...b,
    from: map(b.from),
    to: map(b.to, 1),
    open: tag(b.open),
    ...(b.close ? { close: tag(b.close) } : {}),
    ...(b.summary ? { summary: tag(b.summary) } : {}),
    tabs: b.tabs.map(tag),
  }));
}

/** GitBook blocks of the document. */
export const gitbookBlocksField = StateField.define<GitbookBlock[]>({
  create: (state) => scanGitbookBlocks(docLines(state)),
  update(blocks, tr) {
    if (!tr.docChanged) return blocks;
    return touchesTags(tr, blocks) ? scanGitbookBlocks(docLines(tr.state)) : mapBlocks(blocks, tr);
  },
});

/** A table or cards block of the document, by source range. */
interface RenderedBlock {
  from: number;
  to: number;
  kind: 'table' | 'cards';
}

function renderedBlocks(state: EditorState): RenderedBlock[] {
  const out: RenderedBlock[] = [];
  // Tables at the top level and in quotes/lists; the iteration does not descend into paragraphs or code.
  syntaxTree(state).iterate({
    enter(node) {
      if (node.name === 'Table') {
        out.push({ from: node.from, to: node.to, kind: 'table' });
        return false;
      }
      return (
        node.name === 'Document' || node.name === 'Blockquote' || node.name.endsWith('List') || node.name === 'ListItem'
      );
    },
  });
  for (const b of state.field(gitbookBlocksField))
    if (b.kind === 'cards' && (b.close || b.open.closedOnLine)) out.push({ from: b.from, to: b.to, kind: 'cards' });
  return out.sort((a, b) => a.from - b.from);
}

/** Lines holding a selection: their tables and cards stay source. */
function selectionTouches(state: EditorState, block: RenderedBlock): boolean {
  const first = state.doc.lineAt(block.from).from;
  const last = state.doc.lineAt(block.to).to;
  return state.selection.ranges.some((r) => r.to >= first && r.from <= last);
}

/** The tabs other than the active one of each tabs block: folded away whole (tag lines and body). */
function inactiveTabs(state: EditorState): Array<{ from: number; to: number }> {
  const blocks = state.field(gitbookBlocksField);
  const head = state.selection.main.head;
  const out: Array<{ from: number; to: number }> = [];
  for (const tabs of blocks) {
    if (tabs.kind !== 'tabs' || tabs.tabs.length < 2) continue;
    const active = tabs.tabs[activeTabIndex(tabs, head)];
    for (const tab of blocks) {
      if (tab.kind !== 'tab' || !tab.close || tab.from < tabs.from || tab.to > tabs.to) continue;
      if (tab.open.from === active?.from || !tabs.tabs.some((t) => t.from === tab.open.from)) continue;
      if (state.field(remoteCaretsField).some((p) => p >= tab.from && p <= tab.to)) continue;
      out.push({ from: tab.from, to: tab.to });
    }
  }
  return out;
}

/** What the field keeps: the blocks found, their decorations, and which of them are drawn (see drawnKey). */
interface BlockWidgets {
  blocks: RenderedBlock[];
  deco: DecorationSet;
  drawn: string;
}

/** Which blocks are rendered and which tab of each tabs block shows: equal keys, equal decorations (up to mapping). */
function drawnKey(state: EditorState, blocks: readonly RenderedBlock[]): string {
  const rendered = blocks.map((b) => (selectionTouches(state, b) || extraRevealed(state, b) ? '0' : '1')).join('');
  const head = state.selection.main.head;
  const tabs = state
    .field(gitbookBlocksField)
    .filter((b) => b.kind === 'tabs')
    .map((b) => activeTabIndex(b, head));
  return `${rendered}|${tabs.join(',')}|${state.field(remoteCaretsField).length}`;
}

function buildBlockWidgets(state: EditorState, blocks = renderedBlocks(state)): BlockWidgets {
  const ranges: Range<Decoration>[] = [];
  for (const tab of inactiveTabs(state)) ranges.push(foldedTab.range(tab.from, tab.to));
  for (const block of blocks) {
    if (selectionTouches(state, block) || extraRevealed(state, block)) continue;
    const source = state.doc.sliceString(block.from, block.to);
    const widget = block.kind === 'table' ? new TableWidget(source) : new CardsWidget(source);
    ranges.push(Decoration.replace({ widget, block: true }).range(block.from, block.to));
  }
  return { blocks, deco: Decoration.set(ranges, true), drawn: drawnKey(state, blocks) };
}

/**
 * Whether an edit may change which tables, cards or tabs there are: it touches (or borders) one,
 * or its lines hold table pipes, HTML or GitBook tags. Typing in prose does not: then the
 * decorations are only mapped, not rebuilt (keeps keystrokes in long pages cheap).
 */
function mayChangeBlocks(tr: Transaction, blocks: readonly RenderedBlock[]): boolean {
  const marker = /[|<>]|\{%|%\}/;
  let may = false;
  tr.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    if (may) return;
    const doc = tr.state.doc;
    const first = doc.line(Math.max(1, doc.lineAt(fromB).number - 1));
    const last = doc.line(Math.min(doc.lines, doc.lineAt(toB).number + 1));
    if (marker.test(doc.sliceString(first.from, last.to))) may = true;
    else if (marker.test(tr.startState.doc.sliceString(fromA, toA))) may = true;
    else {
      const old = tr.startState.doc;
      const oldFirst = old.line(Math.max(1, old.lineAt(fromA).number - 1)).from;
      const oldLast = old.line(Math.min(old.lines, old.lineAt(toA).number + 1)).to;
      may = blocks.some((b) => b.from <= oldLast && b.to >= oldFirst);
    }
  });
  return may;
}

/** An inactive tab's lines, folded (no widget: the strip above names it). */
const foldedTab = Decoration.replace({ block: true });

/** Positions of collaborators' carets (set by the view plugin), so their tables stay source too. */
export const setRemoteCarets = StateEffect.define<number[]>();
export const remoteCaretsField = StateField.define<number[]>({
  create: () => [],
  update(carets, tr) {
    for (const e of tr.effects) if (e.is(setRemoteCarets)) return e.value;
    return tr.docChanged ? carets.map((p) => tr.changes.mapPos(p)) : carets;
  },
});

function extraRevealed(state: EditorState, block: RenderedBlock): boolean {
  return state.field(remoteCaretsField).some((p) => p >= block.from && p <= block.to);
}

/** Rendered tables and cards, and folded inactive tabs. */
export const blockWidgetsField = StateField.define<BlockWidgets>({
  create: (state) => buildBlockWidgets(state),
  update(value, tr) {
    const refresh = tr.effects.some((e) => e.is(refreshLivePreview) || e.is(setRemoteCarets));
    const treeChanged = syntaxTree(tr.state) !== syntaxTree(tr.startState);
    if (refresh || (treeChanged && !tr.docChanged)) return buildBlockWidgets(tr.state);
    if (!tr.docChanged && !tr.selection) return value;
    if (tr.docChanged && mayChangeBlocks(tr, value.blocks)) return buildBlockWidgets(tr.state);
    const blocks = tr.docChanged
      ? value.blocks.map((b) => ({ ...b, from: tr.changes.mapPos(b.from, 1), to: tr.changes.mapPos(b.to, -1) }))
      : value.blocks;
    const drawn = drawnKey(tr.state, blocks);
    if (drawn !== value.drawn) return buildBlockWidgets(tr.state, blocks);
    return { blocks, deco: tr.docChanged ? value.deco.map(tr.changes) : value.deco, drawn };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.deco),
});
