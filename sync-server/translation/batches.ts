import type { BatchLimits } from './engine';

/**
 * Items cut into batches of at most `limits.maxSegments` items and `limits.maxChars` characters, in
 * order (pages finish one after the other, which is what progress reports). An item longer than
 * `maxChars` goes alone: a paragraph is never split, since a sentence cut in two translates badly.
 */
export function makeBatches<T>(items: readonly T[], size: (item: T) => number, limits: BatchLimits): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const length = size(item);
    if (current.length > 0 && (current.length >= limits.maxSegments || chars + length > limits.maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
