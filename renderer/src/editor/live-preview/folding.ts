import type { EditorState, Extension, Text } from '@codemirror/state';
import {
  codeFolding,
  foldCode,
  foldEffect,
  foldService,
  foldedRanges,
  unfoldCode,
  unfoldEffect,
} from '@codemirror/language';
import { keymap, type EditorView } from '@codemirror/view';
import { gitbookBlocksField } from './block-fields';
import type { GitbookBlock } from './gitbook-blocks';

/**
 * Folding of expandables (`{% expandable %}` and `<details>`) in the editor:
 * their body lines (the `<summary>` line too) can be hidden and shown again
 * with CodeMirror's folding (@codemirror/language: a fold is a decoration,
 * never an edit, so the text and the collaborators' copies do not change).
 * The header row live preview draws has a fold button (widgets.ts); on the
 * raw header line, Ctrl+Shift+[ folds and Ctrl+Shift+] unfolds (Cmd+Alt+[ /
 * ] on a Mac), CodeMirror's keys. A fold opens again when the cursor moves
 * into it, or when the page is shown as source.
 */

/** What a fold of `block` covers: from the end of its opening line to the end of its last body line. */
export function expandableFoldRange(doc: Text, block: GitbookBlock): { from: number; to: number } | null {
  if ((block.kind !== 'expandable' && block.kind !== 'details') || !block.close) return null;
  const open = doc.lineAt(block.open.from);
  const close = doc.lineAt(block.close.from);
  if (close.number - open.number < 2) return null; // nothing inside to hide
  return { from: open.to, to: close.from - 1 };
}

/** The fold range of the expandable that opens on the line starting at `lineStart`, if any. */
function expandableAt(state: EditorState, lineStart: number): { from: number; to: number } | null {
  const block = state.field(gitbookBlocksField, false)?.find((b) => b.open.from === lineStart && b.close);
  return block ? expandableFoldRange(state.doc, block) : null;
}

/** Whether exactly `range` is folded. */
export function isFolded(state: EditorState, range: { from: number; to: number }): boolean {
  let found = false;
  foldedRanges(state).between(range.from, range.from, (from, to) => {
    if (from === range.from && to === range.to) found = true;
  });
  return found;
}

/** Folds the expandable whose opening line holds `pos`, or unfolds it when it is folded. */
export function toggleExpandable(view: EditorView, pos: number): boolean {
  const range = expandableAt(view.state, view.state.doc.lineAt(pos).from);
  if (!range) return false;
  view.dispatch({ effects: (isFolded(view.state, range) ? unfoldEffect : foldEffect).of(range) });
  return true;
}

/** Folding for live preview: the fold state, expandables as foldable ranges, and the fold keys. */
export function expandableFolding(): Extension {
  return [
    codeFolding(),
    foldService.of((state, lineStart) => expandableAt(state, lineStart)),
    keymap.of([
      { key: 'Ctrl-Shift-[', mac: 'Cmd-Alt-[', run: foldCode },
      { key: 'Ctrl-Shift-]', mac: 'Cmd-Alt-]', run: unfoldCode },
    ]),
  ];
}
