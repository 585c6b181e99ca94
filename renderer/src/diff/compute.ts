import { diffLines, diffWordsWithSpace } from 'diff';

/**
 * Text diffs for reviewing (change requests, history), computed with jsdiff
 * and shaped for rendering: a word-level diff of the prose and a line diff of
 * the raw markdown with old/new line numbers. Pure (no DOM), so tested alone.
 */

export type DiffKind = 'same' | 'added' | 'removed';

export interface DiffPart {
  kind: DiffKind;
  text: string;
}

export interface DiffLine {
  kind: DiffKind;
  text: string;
  /** Line number in the old text (same and removed lines). */
  oldNo?: number;
  /** Line number in the new text (same and added lines). */
  newNo?: number;
}

export interface DiffStats {
  added: number;
  removed: number;
}

/** Longest a diff may run (ms) before it is abandoned for a coarser one: a review must never freeze the window. */
const TIMEOUT_MS = 500;

const kindOf = (p: { added?: boolean; removed?: boolean }): DiffKind =>
  p.added ? 'added' : p.removed ? 'removed' : 'same';

/** Word-level diff (whitespace kept as its own tokens, so the text reads exactly as written). */
export function wordDiff(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  const parts = diffWordsWithSpace(before, after, { timeout: TIMEOUT_MS });
  // Too costly to compare word by word: show it as whole-text replacement rather than nothing.
  if (!parts)
    return [
      ...(before ? [{ kind: 'removed' as const, text: before }] : []),
      ...(after ? [{ kind: 'added' as const, text: after }] : []),
    ];
  return parts.filter((p) => p.value).map((p) => ({ kind: kindOf(p), text: p.value }));
}

/** Line diff of raw markdown, one entry per line, numbered on both sides. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const parts = diffLines(before, after, { timeout: TIMEOUT_MS }) ?? [
    { value: before, removed: true, added: false, count: 0 },
    { value: after, added: true, removed: false, count: 0 },
  ];
  const out: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  for (const part of parts) {
    if (!part.value) continue;
    const kind = kindOf(part);
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) {
      if (kind === 'same') out.push({ kind, text, oldNo: oldNo++, newNo: newNo++ });
      else if (kind === 'removed') out.push({ kind, text, oldNo: oldNo++ });
      else out.push({ kind, text, newNo: newNo++ });
    }
  }
  return out;
}

/** How many words were added and removed (whitespace not counted). */
export function wordStats(parts: DiffPart[]): DiffStats {
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    if (p.kind === 'added') added += words(p.text);
    else if (p.kind === 'removed') removed += words(p.text);
  }
  return { added, removed };
}

/** Readable labels of GitBook's semantic change types (and of the kinds a change-request list derives). */
const LABELS: Record<string, string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Deleted',
  page_moved: 'Moved',
  page_renamed: 'Renamed',
  file_created: 'File added',
  file_edited: 'File changed',
  file_deleted: 'File deleted',
  variables_edited: 'Variables changed',
};

/** "Edited", "Added"…; an unknown type is shown humanized ("tag_created" -> "Tag created"). */
export function changeLabel(type: string): string {
  const known = LABELS[type];
  if (known) return known;
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Changed';
}
