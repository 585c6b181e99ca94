import type * as Y from 'yjs';
import { setTextMinimal } from './text-diff';
import { differingChars, spanEdits, wordEdits, type TextEdit } from './word-edits';

export type { TextEdit } from './word-edits';

/**
 * Makes a Y.Text read `next` the way a person would edit it: word-level
 * deletes and inserts where the texts differ, nothing where they agree.
 * Restoring an old version of a page this way is an ordinary edit: another
 * writer's concurrent typing in a paragraph the restore leaves alone survives
 * the merge (a delete-all + insert would drop it), and every change lands in
 * one transaction, so the editor's undo takes it back in one step.
 */

/** Longest the word diff may take before falling back to one span (a pathological diff must not freeze the UI). */
const DIFF_TIMEOUT_MS = 300;

/**
 * Largest differing part (UTF-16 units of both versions together) that is
 * diffed at all: beyond it the text is replaced as one span without diffing
 * (a whole-page rewrite that large has no paragraphs left to keep anyway).
 */
export const WORD_DIFF_MAX_CHARS = 1024 * 1024;

/** How a caller computes the edits from `current` to `next` (textEdits by default). */
export type EditsFor = (current: string, next: string) => TextEdit[];

/**
 * The edits that turn `current` into `next`: word-level (word-edits.ts), or
 * one span when the differing part is over WORD_DIFF_MAX_CHARS or the diff
 * takes longer than `timeoutMs`.
 */
export function textEdits(current: string, next: string, timeoutMs = DIFF_TIMEOUT_MS): TextEdit[] {
  if (current === next) return [];
  const { removed, added } = differingChars(current, next);
  if (removed === 0 || added === 0 || removed + added > WORD_DIFF_MAX_CHARS) return spanEdits(current, next);
  return wordEdits(current, next, Date.now() + timeoutMs);
}

/**
 * Applies `edits` (which turn the text into `next`) to `text`; call inside a
 * transaction. Whatever the edits did, the text ends up exactly `next`.
 */
export function applyTextEdits(text: Y.Text, edits: readonly TextEdit[], next: string): void {
  for (const e of edits) {
    if ('insert' in e) text.insert(e.at, e.insert);
    else text.delete(e.at, e.delete);
  }
  // Belt and braces: edits computed for another version of the text must still leave `next`.
  if (text.toString() !== next) setTextMinimal(text, next);
}

/**
 * Makes `text` read `next` with `editsFor(text, next)` (textEdits by default)
 * in one transaction of its document (with `origin`; the default null is what
 * a local editor's UndoManager tracks). Returns whether anything changed.
 */
export function replaceText(
  text: Y.Text,
  next: string,
  origin: unknown = null,
  editsFor: EditsFor = textEdits,
): boolean {
  const current = text.toString();
  if (current === next) return false;
  const edits = editsFor(current, next);
  const apply = () => applyTextEdits(text, edits, next);
  if (text.doc) text.doc.transact(apply, origin);
  else apply();
  return true;
}
