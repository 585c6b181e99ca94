/**
 * The words a query looks for, and snippets of a section with those words
 * marked. The same code highlights the server's results and the offline
 * index's, so both read the same. Matching is by word prefix and folds case
 * and accents ("cafe" marks "Café"), close to how the server's stemmed
 * full-text search and the offline index's prefix search find words.
 */

/** A piece of text, marked when it is a matched word. */
export interface Segment {
  text: string;
  mark: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** Operators of the server's web-search syntax that are not words to find. */
const OPERATORS = new Set(['or', 'and']);

/** Lowercase without accents, so "Café" and "cafe" compare equal. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * The words of a query to highlight: folded, deduplicated, without operators
 * and `-excluded` words. Long words also give their stem without a common
 * English ending, as the server's stemmer matches "running" to "runs".
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const match of query.matchAll(/(^|\s)(-?)("[^"]*"|\S+)/g)) {
    if (match[2] === '-') continue;
    for (const word of fold(match[3]!).match(WORD) ?? []) {
      if (OPERATORS.has(word)) continue;
      terms.add(word);
      const stem = word.length > 4 ? word.replace(/(ing|ed|es|s)$/, '') : word;
      if (stem.length >= 3) terms.add(stem);
    }
  }
  return [...terms];
}

/** Whether `word` (folded) is a match of one of `terms` (a word starting with a term). */
function isMatch(word: string, terms: readonly string[]): boolean {
  return terms.some((t) => word.startsWith(t));
}

/** `text` cut into segments with every word matching `terms` marked. */
export function highlight(text: string, terms: readonly string[]): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  const push = (piece: string, mark: boolean) => {
    if (piece === '') return;
    const previous = segments[segments.length - 1];
    if (previous && previous.mark === mark && !mark) previous.text += piece;
    else segments.push({ text: piece, mark });
  };
  for (const match of text.matchAll(WORD)) {
    if (!isMatch(fold(match[0]), terms)) continue;
    push(text.slice(last, match.index), false);
    push(match[0], true);
    last = match.index + match[0].length;
  }
  push(text.slice(last), false);
  return segments;
}

/**
 * A window of about `length` characters of `body` around its first matched
 * word (the start of the body when nothing matches, as for a title-only
 * match), cut at word boundaries, with "…" where it was cut, and the matches
 * marked. Newlines become spaces: a snippet is one line of prose.
 */
export function snippet(body: string, terms: readonly string[], length = 160): Segment[] {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= length) return highlight(text, terms);
  let first = -1;
  for (const match of text.matchAll(WORD)) {
    if (isMatch(fold(match[0]), terms)) {
      first = match.index;
      break;
    }
  }
  // Some context before the match (a third of the window), unless the match is near the start.
  let start = first < 0 ? 0 : Math.max(0, first - Math.floor(length / 3));
  let end = Math.min(text.length, start + length);
  if (end === text.length) start = Math.max(0, end - length);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < (first < 0 ? end : first)) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start && space > first) end = space;
  }
  const segments = highlight(text.slice(start, end), terms);
  if (start > 0) segments.unshift({ text: '…', mark: false });
  if (end < text.length) segments.push({ text: '…', mark: false });
  return segments;
}

/** Whether any segment is marked. */
export function hasMark(segments: readonly Segment[]): boolean {
  return segments.some((s) => s.mark);
}
