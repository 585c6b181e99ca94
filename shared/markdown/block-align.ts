import { diffArrays } from 'diff';

/**
 * Pairs the blocks of two versions of a page (source = older, current =
 * newer), by content: blocks whose content is equal and in the same order
 * (a longest common subsequence) are anchors. Between two anchors, a changed
 * block is paired with the old block it most resembles (shared words, order
 * kept): a modified block. Where no resemblance decides, blocks left between
 * two pairs are paired in order when there are as many on each side (a
 * one-for-one rewrite); otherwise what is left was deleted from the source or
 * added in the current version. Pairing in order alone would take "deleted
 * the 3rd paragraph, edited the 4th" for "rewrote the 3rd, deleted the 4th".
 * Blocks are given by their content hash (block-keys.ts), so equal text is
 * an equal block wherever it moved.
 */

/** One row of the alignment, in document order. */
export type AlignedRow =
  | { kind: 'same'; source: number; current: number }
  | { kind: 'modified'; source: number; current: number }
  | { kind: 'deleted'; source: number }
  | { kind: 'added'; current: number };

/** How alike source block `s` and current block `c` are, 0..1 (see wordSimilarity). */
export type Similarity = (s: number, c: number) => number;

/** Longest the LCS may take before the pages are treated as wholly different (a pathological page must not stall a request). */
const ALIGN_TIMEOUT_MS = 200;
/** Least similarity for two blocks to be one block modified. */
const MIN_SIMILARITY = 0.3;
/** Largest gap (removed × added blocks) paired by similarity; a larger one is paired in order. */
const MAX_GAP_CELLS = 100_000;

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

function dice(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size + y.size === 0) return 0;
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  let shared = 0;
  for (const w of small) if (large.has(w)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/** Dice coefficient of the two texts' sets of words (case-insensitive): 1 = same words, 0 = none shared. */
export function wordSimilarity(a: string, b: string): number {
  return dice(words(a), words(b));
}

/** wordSimilarity of source block texts and current block texts, each text's words read once. */
export function wordSimilarityOf(source: readonly string[], current: readonly string[]): Similarity {
  const sourceWords = new Map<number, Set<string>>();
  const currentWords = new Map<number, Set<string>>();
  const of = (cache: Map<number, Set<string>>, texts: readonly string[], i: number) => {
    let set = cache.get(i);
    if (!set) cache.set(i, (set = words(texts[i]!)));
    return set;
  };
  return (s, c) => dice(of(sourceWords, source, s), of(currentWords, current, c));
}

/** Order-preserving pairs of removed[i] and added[j] with the greatest total similarity (each ≥ MIN_SIMILARITY). */
function bestPairs(removed: number[], added: number[], similarity: Similarity): [number, number][] {
  const n = removed.length;
  const m = added.length;
  const sim = (i: number, j: number) => similarity(removed[i]!, added[j]!);
  // score[i][j]: best total for removed[i..] and added[j..].
  const score = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  const simOf = Array.from({ length: n }, () => new Float64Array(m));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const s = sim(i, j);
      simOf[i]![j] = s;
      const pair = s >= MIN_SIMILARITY ? s + score[i + 1]![j + 1]! : -1;
      score[i]![j] = Math.max(pair, score[i + 1]![j]!, score[i]![j + 1]!);
    }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const s = simOf[i]![j]!;
    if (s >= MIN_SIMILARITY && score[i]![j] === s + score[i + 1]![j + 1]!) pairs.push([i++, j++]);
    else if (score[i]![j] === score[i + 1]![j]) i++;
    else j++;
  }
  return pairs;
}

/** Rows for one gap between anchors. */
function gapRows(removed: number[], added: number[], similarity: Similarity | undefined): AlignedRow[] {
  const rows: AlignedRow[] = [];
  const inOrder = (r: number[], a: number[]) => {
    if (r.length === a.length) r.forEach((s, k) => rows.push({ kind: 'modified', source: s, current: a[k]! }));
    else {
      for (const s of r) rows.push({ kind: 'deleted', source: s });
      for (const c of a) rows.push({ kind: 'added', current: c });
    }
  };
  if (!similarity || removed.length * added.length > MAX_GAP_CELLS) {
    const paired = Math.min(removed.length, added.length);
    inOrder(removed.slice(0, paired), added.slice(0, paired));
    for (const s of removed.slice(paired)) rows.push({ kind: 'deleted', source: s });
    for (const c of added.slice(paired)) rows.push({ kind: 'added', current: c });
    return rows;
  }
  let i = 0;
  let j = 0;
  for (const [pi, pj] of bestPairs(removed, added, similarity)) {
    inOrder(removed.slice(i, pi), added.slice(j, pj));
    rows.push({ kind: 'modified', source: removed[pi]!, current: added[pj]! });
    i = pi + 1;
    j = pj + 1;
  }
  inOrder(removed.slice(i), added.slice(j));
  return rows;
}

/**
 * Aligns `source` and `current` (content hashes of their blocks, in order).
 * Without `similarity`, changed blocks between anchors are paired in order.
 */
export function alignBlocks(
  source: readonly string[],
  current: readonly string[],
  similarity?: Similarity,
): AlignedRow[] {
  const rows: AlignedRow[] = [];
  let s = 0;
  let c = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const flushGap = () => {
    rows.push(...gapRows(removed, added, similarity));
    removed = [];
    added = [];
  };
  const parts = diffArrays([...source], [...current], { timeout: ALIGN_TIMEOUT_MS }) ?? [
    { value: [...source], count: source.length, removed: true, added: false },
    { value: [...current], count: current.length, removed: false, added: true },
  ];
  for (const part of parts) {
    const count = part.value.length;
    if (part.removed) for (let i = 0; i < count; i++) removed.push(s++);
    else if (part.added) for (let i = 0; i < count; i++) added.push(c++);
    else {
      flushGap();
      for (let i = 0; i < count; i++) rows.push({ kind: 'same', source: s++, current: c++ });
    }
  }
  flushGap();
  return rows;
}
