import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import type { EditorState, TransactionSpec } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { BLOCK_ITEMS, type AuthoringItem } from './blocks';
import { openSpecPicker, specCompletions } from '../openapi/spec-picker';
import { integrationItemsOf } from '../integrations/menu';
import { insertBlockAt, lineKind, linePrefixChange } from './commands';

/**
 * The `/` menu: typing `/` at the start of a line or after a space lists
 * every block, filtered by what follows the slash; the arrows move, Enter
 * inserts, Escape closes (@codemirror/autocomplete's behaviour). Choosing
 * one replaces the `/query` with the block.
 */

/** The `/query` the cursor ends, when it may open the menu (line start or after a space, not in code). */
export function slashQueryAt(state: EditorState, pos: number): { from: number; query: string } | null {
  const line = state.doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const match = /(?:^|\s)\/([\w-]*)$/.exec(before);
  if (!match) return null;
  const from = pos - match[1]!.length - 1;
  for (
    let n: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(state).resolveInner(from, 1);
    n;
    n = n.parent
  )
    if (/^(FencedCode|CodeBlock|InlineCode|CodeText)$/.test(n.name)) return null;
  return { from, query: match[1]! };
}

/** The blocks matching `query`, best first: label words starting with it, then ids and keywords containing it. */
export function filterBlocks(query: string, items: readonly AuthoringItem[] = BLOCK_ITEMS): AuthoringItem[] {
  const q = query.toLowerCase().replace(/-/g, ' ').trim();
  if (!q) return [...items];
  const score = (item: AuthoringItem): number => {
    const label = item.label.toLowerCase();
    if (label.startsWith(q)) return 0;
    if (label.split(/\s+/).some((word) => word.startsWith(q))) return 1;
    if (item.id.startsWith(q.replace(/\s/g, '-'))) return 1;
    const words = `${item.id} ${item.keywords ?? ''}`.toLowerCase();
    if (words.split(/\s+/).some((word) => word.startsWith(q))) return 2;
    if (label.includes(q) || words.includes(q)) return 3;
    return -1;
  };
  return items
    .map((item, rank) => ({ item, rank, s: score(item) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || a.rank - b.rank)
    .map((x) => x.item);
}

/**
 * The transaction that replaces the `/query` at `from..to` with `item`:
 * a line kind (heading, list, quote) becomes the line's prefix; a block
 * template goes on lines of its own.
 */
export function applySlashItem(
  state: EditorState,
  item: AuthoringItem,
  from: number,
  to: number,
): TransactionSpec | null {
  if (item.lineKind) {
    const line = state.doc.lineAt(from);
    const removal = { from, to, insert: '' };
    // The space the slash came after goes too, when nothing follows the query.
    if (from > line.from && state.doc.sliceString(from - 1, from) === ' ' && to === line.to) removal.from -= 1;
    const kind = lineKind(line.text) === item.lineKind ? 'paragraph' : item.lineKind;
    const prefix = linePrefixChange(line, kind);
    if (prefix.to > removal.from) return null; // the query sits inside the old prefix
    const delta = prefix.insert.length - (prefix.to - prefix.from) - (removal.to - removal.from);
    return { changes: [prefix, removal], selection: { anchor: to + delta }, scrollIntoView: true };
  }
  if (item.template !== undefined) return insertBlockAt(state, from, to, item.template);
  return null;
}

/** What the menu does with an item the page view runs (the image picker). */
export type ItemAction = (id: string, view: EditorView) => void;

/** The completion source of the `/` menu. */
export function slashCompletions(action: ItemAction) {
  const source = (context: CompletionContext): CompletionResult | null => {
    const found = slashQueryAt(context.state, context.pos);
    if (!found) return null;
    // The built-in blocks, then the blocks of the integrations installed on the space (their own group).
    const items = filterBlocks(found.query, [...BLOCK_ITEMS, ...integrationItemsOf(context.state)]);
    const options: Completion[] = items.map((item, rank) => ({
      label: `/${found.query}`,
      displayLabel: item.label,
      detail: item.detail,
      type: `folio-block folio-block-${item.section ? 'integration' : item.id}`,
      boost: 99 - rank,
      ...(item.section ? { section: { name: item.section, rank: 1 } } : {}),
      apply: (view: EditorView, _completion: Completion, from: number, to: number) => {
        if (item.lineKind === undefined && item.template === undefined) {
          view.dispatch({ changes: { from, to, insert: '' }, userEvent: 'input.complete' });
          action(item.id, view);
          return;
        }
        const spec = applySlashItem(view.state, item, from, to);
        if (spec) view.dispatch({ ...spec, userEvent: 'input.complete' });
        // An API operation block asks for its spec next (after this completion has closed).
        if (item.id === 'api-operation') setTimeout(() => openSpecPicker(view), 0);
      },
    }));
    if (options.length === 0) return null;
    // Our own ranking (filter: false), redone synchronously as the query grows (`update`), so the
    // menu never goes stale or waits for a new query between keystrokes.
    return { from: found.from, options, filter: false, update: (_current, _from, _to, next) => source(next) };
  };
  // In an API operation block's spec value, the same completion is the spec picker.
  return (context: CompletionContext) => source(context) ?? specCompletions(context);
}
