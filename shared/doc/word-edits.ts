import { diffArrays, diffWordsWithSpace } from 'diff';
import { diffSpan } from './text-diff';

/**
 * Word-level edits between two versions of a page body, fast enough for
 * large pages: the texts are compared line by line first (a Myers diff over
 * lines: a 200 kB page has ~1,500 of them, against ~70,000 words), and only
 * the lines that changed are compared word by word. A plain word diff of a
 * 200 kB page edited all through took 14.5 s; this takes ~0.2 s and gives the
 * same edits wherever paragraphs changed in place. Every step has a deadline:
 * past it, what is left becomes one span per changed region (still exact,
 * just coarser), so no input makes it run long.
 */

/** One edit of a Y.Text, as offsets into the text at the time it is applied (in order). */
export type TextEdit = { at: number; delete: number } | { at: number; insert: string };

/** The edits that turn `current` into `next` as one delete + insert of the part that differs. */
export function spanEdits(current: string, next: string): TextEdit[] {
  if (current === next) return [];
  const { start, deleteCount, insert } = diffSpan(current, next);
  const out: TextEdit[] = [];
  if (deleteCount > 0) out.push({ at: start, delete: deleteCount });
  if (insert.length > 0) out.push({ at: start, insert });
  return out;
}

/**
 * How much of the two texts differs: both lengths minus their common prefix
 * and suffix (UTF-16 units). 0 when they are equal. Linear, no allocation.
 */
export function differingChars(current: string, next: string): { removed: number; added: number } {
  const max = Math.min(current.length, next.length);
  let start = 0;
  while (start < max && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end))
    end++;
  return { removed: current.length - start - end, added: next.length - start - end };
}

const isLineStart = (text: string, i: number) => i === 0 || text.charCodeAt(i - 1) === 10;

/** Lines of `text`, each with its `\n` (the last one may have none). */
function lines(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
    out.push(text.slice(from, nl + 1));
    from = nl + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** Milliseconds left before `deadline` (Date.now() based, like jsdiff's own timeout). */
const left = (deadline: number) => deadline - Date.now();

/** A run of a word diff: text both sides keep, or a change (`gone` -> `come`). */
type Run = { keep: string } | { gone: string; come: string };

/**
 * The word diff's runs with the trivial equalities folded into the changes
 * around them (diff-match-patch's semantic cleanup rule: an equality no longer
 * than the change on either side of it). Diffing a short paragraph against a
 * long new text otherwise matches every "the" and space in it, and the insert
 * becomes thousands of fragments: no use to anyone, and each is an item Yjs
 * must split and store.
 */
function cleanRuns(parts: readonly { value: string; added?: boolean; removed?: boolean }[]): Run[] {
  const runs: Run[] = [];
  const size = (r: Run) => ('keep' in r ? 0 : Math.max(r.gone.length, r.come.length));
  for (const part of parts) {
    let run: Run = part.added
      ? { gone: '', come: part.value }
      : part.removed
        ? { gone: part.value, come: '' }
        : { keep: part.value };
    for (;;) {
      const last = runs.at(-1);
      if (!last || 'keep' in run) break;
      if (!('keep' in last)) {
        runs.pop();
        run = { gone: last.gone + run.gone, come: last.come + run.come };
        continue;
      }
      const before = runs.at(-2);
      if (!before || 'keep' in before || last.keep.length > size(before) || last.keep.length > size(run)) break;
      runs.length -= 2;
      run = { gone: before.gone + last.keep + run.gone, come: before.come + last.keep + run.come };
    }
    runs.push(run);
  }
  return runs;
}

/** Word edits of one changed region (`removed` -> `added`) at `at`, appended to `out`; one span past the deadline. */
function regionEdits(removed: string, added: string, at: number, deadline: number, out: TextEdit[]): void {
  const ms = left(deadline);
  const parts = removed && added && ms > 0 ? diffWordsWithSpace(removed, added, { timeout: ms }) : undefined;
  if (!parts) {
    for (const e of spanEdits(removed, added)) out.push({ ...e, at: at + e.at });
    return;
  }
  for (const run of cleanRuns(parts)) {
    if ('keep' in run) {
      at += run.keep.length;
      continue;
    }
    if (run.gone) out.push({ at, delete: run.gone.length });
    if (run.come) {
      out.push({ at, insert: run.come });
      at += run.come.length;
    }
  }
}

/**
 * The edits that turn `current` into `next`: word-level where lines changed,
 * nothing where they agree. `deadline` (ms since the epoch) bounds the work.
 */
export function wordEdits(current: string, next: string, deadline = Infinity): TextEdit[] {
  if (current === next) return [];
  // The common prefix and suffix, cut back to whole lines (a cut inside a word would split it).
  const max = Math.min(current.length, next.length);
  let start = 0;
  while (start < max && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  while (start > 0 && !isLineStart(current, start)) start--;
  let end = 0;
  while (end < max - start && current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end))
    end++;
  while (end > 0 && !(isLineStart(current, current.length - end) && isLineStart(next, next.length - end))) end--;
  const removed = current.slice(start, current.length - end);
  const added = next.slice(start, next.length - end);
  const out: TextEdit[] = [];
  const ms = left(deadline);
  const parts = removed && added && ms > 0 ? diffArrays(lines(removed), lines(added), { timeout: ms }) : undefined;
  if (!parts) {
    regionEdits(removed, added, start, -Infinity, out);
    return out;
  }
  let at = start;
  let gone = '';
  let come = '';
  const flush = () => {
    if (!gone && !come) return;
    regionEdits(gone, come, at, deadline, out);
    at += come.length;
    gone = come = '';
  };
  for (const part of parts) {
    const value = part.value.join('');
    if (part.removed) gone += value;
    else if (part.added) come += value;
    else {
      flush();
      at += value.length;
    }
  }
  flush();
  return out;
}

/**
 * Edits as a flat list of numbers, to send between threads without copying
 * the inserted text twice: `[at, n]` deletes n units at `at`, `[at, -n]`
 * inserts the n units `next` has at `at` (left to right, the text before
 * `at` already reads as `next` does, so that is always what is inserted).
 */
export function encodeEdits(edits: readonly TextEdit[]): number[] {
  const out: number[] = [];
  for (const e of edits) out.push(e.at, 'insert' in e ? -e.insert.length : e.delete);
  return out;
}

/** The edits of `encodeEdits`, with their inserted text taken from `next`. */
export function decodeEdits(encoded: readonly number[], next: string): TextEdit[] {
  const out: TextEdit[] = [];
  for (let i = 0; i + 1 < encoded.length; i += 2) {
    const at = encoded[i]!;
    const n = encoded[i + 1]!;
    out.push(n < 0 ? { at, insert: next.slice(at, at - n) } : { at, delete: n });
  }
  return out;
}
