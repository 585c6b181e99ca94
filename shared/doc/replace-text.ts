import type * as Y from 'yjs';
import { diffWordsWithSpace } from 'diff';
import { setTextMinimal } from './text-diff';

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

/** One edit of a Y.Text, as offsets into the text at the time it is applied (in order). */
export type TextEdit = { at: number; delete: number } | { at: number; insert: string };

/** The edits that turn `current` into `next` (word-level; one span when the diff is too costly). */
export function textEdits(current: string, next: string): TextEdit[] {
  if (current === next) return [];
  const parts = diffWordsWithSpace(current, next, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return singleSpan(current, next);
  const edits: TextEdit[] = [];
  let at = 0;
  for (const part of parts) {
    if (part.added) {
      edits.push({ at, insert: part.value });
      at += part.value.length;
    } else if (part.removed) {
      edits.push({ at, delete: part.value.length });
    } else {
      at += part.value.length;
    }
  }
  return edits;
}

function singleSpan(current: string, next: string): TextEdit[] {
  const max = Math.min(current.length, next.length);
  let start = 0;
  while (start < max && current[start] === next[start]) start++;
  let end = 0;
  while (end < max - start && current[current.length - 1 - end] === next[next.length - 1 - end]) end++;
  const out: TextEdit[] = [];
  if (current.length - end - start > 0) out.push({ at: start, delete: current.length - end - start });
  if (next.length - end - start > 0) out.push({ at: start, insert: next.slice(start, next.length - end) });
  return out;
}

/**
 * Applies `textEdits(text, next)` to `text` in one transaction of its
 * document (with `origin`; the default null is what a local editor's
 * UndoManager tracks). Returns whether anything changed.
 */
export function replaceText(text: Y.Text, next: string, origin: unknown = null): boolean {
  const current = text.toString();
  if (current === next) return false;
  const edits = textEdits(current, next);
  const apply = () => {
    for (const e of edits) {
      if ('insert' in e) text.insert(e.at, e.insert);
      else text.delete(e.at, e.delete);
    }
    // Belt and braces: whatever the diff did, the text must end up exactly `next`.
    if (text.toString() !== next) setTextMinimal(text, next);
  };
  if (text.doc) text.doc.transact(apply, origin);
  else apply();
  return true;
}
