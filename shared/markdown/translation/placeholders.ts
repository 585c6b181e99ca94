/**
 * Placeholders: `⟦n⟧` (n = 1, 2, …, numbered per segment) stands for text the engine must not
 * touch (inline code, a link's target, a block tag, a glossary term). The brackets are U+27E6 and
 * U+27E7: rare in prose, kept as-is by tokenizers, and not markdown or HTML syntax, so neither the
 * engine's formatting nor ours reads them as anything. A literal ⟦ or ⟧ in the source is itself
 * protected by a placeholder, so every `⟦n⟧` in a segment is one of ours.
 */

export const PLACEHOLDER = /⟦(\d+)⟧/g;

export function placeholder(n: number): string {
  return `⟦${n}⟧`;
}

/** How many times each placeholder occurs in `text`. */
export function placeholderCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(PLACEHOLDER)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  return counts;
}

/**
 * Whether `output` holds exactly the placeholders of `input`, each as often (the structure check
 * every engine answer passes): a lost placeholder loses a link target or a code span, a doubled one
 * duplicates it, an invented one restores nothing.
 */
export function samePlaceholders(input: string, output: string): boolean {
  const a = placeholderCounts(input);
  const b = placeholderCounts(output);
  if (a.size !== b.size) return false;
  for (const [n, count] of a) if (b.get(n) !== count) return false;
  return true;
}

/** The text without its placeholders (what is worth translating; what words are counted on). */
export function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, ' ');
}

/** Whether there is anything to translate: a letter outside the placeholders (numbers and punctuation stay as they are). */
export function hasProse(text: string): boolean {
  return /\p{L}/u.test(withoutPlaceholders(text));
}
