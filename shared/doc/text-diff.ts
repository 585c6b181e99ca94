import type * as Y from 'yjs';

/**
 * Replacing a whole Y.Text (delete all + insert) would discard every
 * concurrent edit another replica made to it: their insertions would land
 * inside deleted text. REST writes of a page's markdown therefore touch only
 * the span that actually differs, so a writer's concurrent insert elsewhere
 * in the page survives the merge.
 */

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The differing middle of `a` -> `b`: `a[start, a.length - suffix)` becomes `b[start, b.length - suffix)`. */
export function diffSpan(a: string, b: string): { start: number; deleteCount: number; insert: string } {
  const max = Math.min(a.length, b.length);
  let start = 0;
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  // Never cut between the two halves of a surrogate pair (an emoji): Y.Text
  // counts UTF-16 units, and a split pair would be stored as lone surrogates.
  if (start > 0 && start < max && isHigh(a.charCodeAt(start - 1))) start--;
  let suffix = 0;
  const maxSuffix = max - start;
  while (suffix < maxSuffix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  if (suffix > 0 && suffix < maxSuffix && isLow(a.charCodeAt(a.length - suffix))) suffix--;
  return { start, deleteCount: a.length - suffix - start, insert: b.slice(start, b.length - suffix) };
}

/**
 * Makes `text` read `next` with the smallest single delete + insert. Call
 * inside a transaction when it is part of a larger change. Returns whether
 * anything changed.
 */
export function setTextMinimal(text: Y.Text, next: string): boolean {
  const current = text.toString();
  if (current === next) return false;
  const { start, deleteCount, insert } = diffSpan(current, next);
  if (deleteCount > 0) text.delete(start, deleteCount);
  if (insert.length > 0) text.insert(start, insert);
  return true;
}
