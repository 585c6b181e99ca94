import { PLACEHOLDER, placeholder } from '../../shared/markdown/translation/placeholders';

/**
 * Glossary enforcement. A GitBook glossary entry maps language codes to terms
 * (`{en: "workspace", fr: "espace de travail"}`). For a run from S to T, each entry with an S term is
 * enforced: every occurrence of the S term in a segment (whole words, case-insensitive) is replaced
 * by a placeholder before the engine sees the text, and the placeholder comes back as the T term, or
 * as the occurrence itself when the entry has no T term (a product name kept in every language).
 * A placeholder is the only way to be sure: engines treat "use this term" as a hint.
 *
 * Case: the T term is written as in the glossary, adapted to how the occurrence is written: an
 * occurrence in capitals (`WORKSPACE`) gives the T term in capitals; one that starts with a capital
 * where the glossary's S term does not (`Workspace` at the start of a sentence or in a title) gives
 * the T term with its first letter in capitals. The glossary never lowers a letter.
 *
 * Whole words: the letters, digits and marks either side of an occurrence must not continue a word,
 * except where the term's edge is in a script written without spaces (Chinese, Japanese, Thai…),
 * where there are no word boundaries to check.
 */

export interface GlossaryEntry {
  translations: Record<string, string>;
}

/** One enforced entry: the S term, and the T term (undefined: the occurrence is kept). */
export interface GlossaryTerm {
  source: string;
  target: string | undefined;
}

export interface GlossaryApplied {
  /** The text with each occurrence replaced by a placeholder numbered from `firstNumber`. */
  text: string;
  /** What those placeholders stand for, in order. */
  restorations: string[];
  /** The terms found (distinct), for the memory key and the engine's prompt. */
  applied: GlossaryTerm[];
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The entries enforced for a run from `from` to `to`, longest S term first (so "workspace settings" wins over "workspace"). */
export function glossaryTerms(entries: readonly GlossaryEntry[], from: string, to: string): GlossaryTerm[] {
  const terms = new Map<string, GlossaryTerm>();
  for (const entry of entries) {
    const source = entry.translations[from]?.trim();
    if (!source) continue;
    const target = entry.translations[to]?.trim() || undefined;
    const key = source.toLowerCase();
    if (!terms.has(key)) terms.set(key, { source, target });
  }
  return [...terms.values()].sort((a, b) => b.source.length - a.source.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for the terms (one regex for all, built once per run). */
export function glossaryMatcher(terms: readonly GlossaryTerm[]): RegExp | undefined {
  if (terms.length === 0) return undefined;
  return new RegExp(terms.map((t) => escapeRegExp(t.source)).join('|'), 'giu');
}

function boundaryOk(text: string, start: number, end: number): boolean {
  const first = text[start]!;
  const last = text[end - 1]!;
  const before = text[start - 1];
  const after = text[end];
  const startOk = UNSPACED_SCRIPT.test(first) || before === undefined || !WORD_CHAR.test(before);
  const endOk = UNSPACED_SCRIPT.test(last) || after === undefined || !WORD_CHAR.test(after);
  return startOk && endOk;
}

const hasUpper = (s: string) => s !== s.toLowerCase();
const isAllCaps = (s: string) => s.length > 1 && s === s.toUpperCase() && hasUpper(s);

/** The T term as the occurrence is written (see "Case" above). */
export function casedTarget(occurrence: string, term: GlossaryTerm): string {
  if (term.target === undefined) return occurrence;
  if (isAllCaps(occurrence) && !isAllCaps(term.source)) return term.target.toUpperCase();
  const occurrenceCapital = hasUpper(occurrence[0]!);
  const sourceCapital = hasUpper(term.source[0]!);
  if (occurrenceCapital && !sourceCapital) return term.target[0]!.toUpperCase() + term.target.slice(1);
  return term.target;
}

/** Replaces the glossary's S terms in the prose of `text` (never inside a placeholder). */
export function applyGlossary(
  text: string,
  firstNumber: number,
  terms: readonly GlossaryTerm[],
  matcher: RegExp | undefined,
): GlossaryApplied {
  if (!matcher) return { text, restorations: [], applied: [] };
  const byKey = new Map(terms.map((t) => [t.source.toLowerCase(), t]));
  const restorations: string[] = [];
  const applied = new Set<GlossaryTerm>();
  let out = '';
  let at = 0;
  // Prose runs between our placeholders: a term never matches inside `⟦12⟧`.
  const runs = [...text.matchAll(PLACEHOLDER)].map((m) => [m.index, m.index + m[0].length] as const);
  runs.push([text.length, text.length]);
  for (const [tokenStart, tokenEnd] of runs) {
    const prose = text.slice(at, tokenStart);
    let last = 0;
    for (const m of prose.matchAll(matcher)) {
      const term = byKey.get(m[0].toLowerCase());
      if (!term || !boundaryOk(prose, m.index, m.index + m[0].length)) continue;
      out += prose.slice(last, m.index) + placeholder(firstNumber + restorations.length);
      restorations.push(casedTarget(m[0], term));
      applied.add(term);
      last = m.index + m[0].length;
    }
    out += prose.slice(last) + text.slice(tokenStart, tokenEnd);
    at = tokenEnd;
  }
  return { text: out, restorations, applied: [...applied] };
}

/** Puts the glossary's terms back for placeholders `firstNumber`… (the segment's own ones are left). */
export function restoreGlossary(text: string, firstNumber: number, restorations: readonly string[]): string {
  if (restorations.length === 0) return text;
  return text.replace(PLACEHOLDER, (token, n: string) => restorations[Number(n) - firstNumber] ?? token);
}
