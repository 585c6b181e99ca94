import { diffArrays } from 'diff';

/**
 * The line alignment both directions of the codec rest on. A page's file and its stored body
 * correspond line by line (body line i is file line bodyStart + i), so an edit on one side maps
 * onto the other by lines: the lines an edit kept keep their counterpart's exact text — its list
 * markers, wrapping, link spelling, line ending — and only the lines it touched are written anew.
 */

/** Past this many changed lines, alignment gives up and treats every line as changed (deterministic, unlike a timeout). */
const MAX_EDIT_LENGTH = 20_000;

/**
 * For each line of `next`, the index of the `base` line it was kept from, or undefined when the
 * edit `base` -> `next` wrote it.
 */
export function alignLines(base: readonly string[], next: readonly string[]): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  if (base.length === next.length && base.every((l, i) => l === next[i])) return next.map((_, i) => i);
  const changes = diffArrays([...base], [...next], { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return next.map(() => undefined);
  let i = 0;
  for (const change of changes) {
    const count = change.value.length;
    if (change.removed) i += count;
    else if (change.added) for (let k = 0; k < count; k++) out.push(undefined);
    else for (let k = 0; k < count; k++) out.push(i++);
  }
  return out;
}

/**
 * Applies the edit `base` -> `next` onto `original` (whose line i stands for base line i): kept
 * lines come from `original`, written lines from `make`.
 */
export function applyLineEdit<T>(
  base: readonly string[],
  next: readonly string[],
  original: readonly T[],
  make: (line: string, index: number) => T,
): { line: T; kept: boolean }[] {
  return alignLines(base, next).map((from, j) =>
    from === undefined ? { line: make(next[j]!, j), kept: false } : { line: original[from]!, kept: true },
  );
}
