import { alignBlocks, wordSimilarityOf } from '../../../shared/markdown/block-align';
import { blockKeyOf, type MarkdownBlock } from '../../../shared/markdown/block-keys';
import { textEdits } from '../../../shared/doc/replace-text';
import { BatchError } from './apply-error';

/**
 * revert_page's `block` form on markdown pages. A page's blocks are the
 * top-level blocks of its markdown, named by content-derived keys
 * (shared/markdown/block-keys.ts). The current and source versions are
 * aligned (shared/markdown/block-align.ts), and each named block is put back
 * as it is in the source: a modified block gets its source text, an added
 * one is removed, a deleted one is re-inserted where it was, a moved one
 * goes back. Everything else — other blocks, the blank lines between them —
 * stays byte for byte.
 *
 * Parsing happens before the batch runs (in the parse pool); the result is a
 * plan of text replacements ("zones") against the text that was parsed. When
 * the batch applies it, the page may have changed since (a writer's
 * keystroke, an earlier change of the batch): the zones are then carried over
 * onto the text as it is, and a change inside a zone is a conflict (409).
 */

/** A version of a page: its markdown and the blocks of it. */
export interface PageVersion {
  text: string;
  blocks: readonly MarkdownBlock[];
}

/** Replace `base[start, end)` with `text`, on behalf of the block keys in `keys`. */
export interface BlockZone {
  start: number;
  end: number;
  text: string;
  keys: string[];
}

/** What a block revert changes, against the text it was planned on. */
export interface BlockRevertPlan {
  base: string;
  zones: BlockZone[];
}

type Out = { kind: 'keep'; current: number } | { kind: 'new'; text: string; gap: string; key: string };

const DEFAULT_GAP = '\n\n';

/**
 * Plans reverting the blocks named by `keys` (keys of either version) of the
 * page from `current` back to `source`. An unknown key is a 400 naming it
 * (`field` is the change's path, e.g. `body.changes[2]`).
 */
export function planBlockRevert(
  current: PageVersion,
  source: PageVersion,
  keys: readonly string[],
  field: string,
  pageId: string,
): BlockRevertPlan {
  const cur = current.blocks;
  const src = source.blocks;
  const srcText = (i: number) => source.text.slice(src[i]!.start, src[i]!.end);
  const curText = (i: number) => current.text.slice(cur[i]!.start, cur[i]!.end);
  const rows = alignBlocks(
    src.map((b) => b.hash),
    cur.map((b) => b.hash),
    wordSimilarityOf(
      src.map((_, i) => srcText(i)),
      cur.map((_, i) => curText(i)),
    ),
  );
  const rowOfCurrent = new Map<number, (typeof rows)[number]>();
  const rowOfSource = new Map<number, (typeof rows)[number]>();
  for (const row of rows) {
    if ('current' in row) rowOfCurrent.set(row.current, row);
    if ('source' in row) rowOfSource.set(row.source, row);
  }
  const curByKey = new Map(cur.map((b, i) => [b.key, i]));
  const srcByKey = new Map(src.map((b, i) => [b.key, i]));

  /** Current blocks to give their source text (by source index), current blocks to drop, source blocks to re-insert. */
  const replace = new Map<number, { source: number; key: string }>();
  const remove = new Map<number, string>();
  const insert = new Map<number, string>();
  const movedBack = (hash: string) =>
    rows.find((r) => r.kind === 'deleted' && src[r.source]!.hash === hash && !insert.has(r.source));

  keys.forEach((sent, j) => {
    const key = blockKeyOf(sent);
    const c = curByKey.get(key);
    if (c !== undefined) {
      const row = rowOfCurrent.get(c)!;
      if (row.kind === 'modified') replace.set(c, { source: row.source, key: sent });
      else if (row.kind === 'added') {
        remove.set(c, sent);
        // Equal content deleted elsewhere: the block moved; reverting it moves it back.
        const from = movedBack(cur[c]!.hash);
        if (from && from.kind === 'deleted') insert.set(from.source, sent);
      }
      return;
    }
    const s = srcByKey.get(key);
    if (s === undefined)
      throw new BatchError(
        400,
        `${field}.block[${j}]: no block with key "${sent}" in page "${pageId}" (current or source)`,
      );
    const row = rowOfSource.get(s)!;
    if (row.kind === 'modified') replace.set(row.current, { source: s, key: sent });
    else if (row.kind === 'deleted') insert.set(s, sent);
  });

  const gapBefore = (v: PageVersion, i: number) =>
    i > 0 ? v.text.slice(v.blocks[i - 1]!.end, v.blocks[i]!.start) : DEFAULT_GAP;

  // The page after the revert, as a sequence of kept current blocks and new texts.
  const outs: (Out | { kind: 'drop'; key: string })[] = [];
  for (const row of rows) {
    if (row.kind === 'deleted') {
      const key = insert.get(row.source);
      if (key !== undefined)
        outs.push({ kind: 'new', text: srcText(row.source), gap: gapBefore(source, row.source), key });
      continue;
    }
    const c = row.current;
    const r = replace.get(c);
    const dropped = remove.get(c);
    if (r) outs.push({ kind: 'new', text: srcText(r.source), gap: gapBefore(current, c), key: r.key });
    else if (dropped !== undefined) outs.push({ kind: 'drop', key: dropped });
    else outs.push({ kind: 'keep', current: c });
  }
  return { base: current.text, zones: zonesOf(current, outs, gapBefore) };
}

/** Each stretch between two kept blocks that has something new or dropped becomes one replacement. */
function zonesOf(
  current: PageVersion,
  outs: readonly (Out | { kind: 'drop'; key: string })[],
  gapBefore: (v: PageVersion, i: number) => string,
): BlockZone[] {
  const cur = current.blocks;
  const zones: BlockZone[] = [];
  let lastKept: number | undefined;
  let pending: { text: string; gap: string }[] = [];
  let keys: string[] = [];
  const close = (next: number | undefined) => {
    if (keys.length > 0) {
      let text = '';
      let first = lastKept === undefined;
      for (const item of pending) {
        text += (first ? '' : item.gap) + item.text;
        first = false;
      }
      if (next !== undefined && !first) text += gapBefore(current, next);
      if (cur.length === 0) {
        zones.push({ start: 0, end: current.text.length, text: text === '' ? current.text : `${text}\n`, keys });
      } else {
        const start = lastKept !== undefined ? cur[lastKept]!.end : cur[0]!.start;
        const end = next !== undefined ? cur[next]!.start : cur[cur.length - 1]!.end;
        zones.push({ start, end, text, keys });
      }
    }
    pending = [];
    keys = [];
  };
  for (const out of outs) {
    if (out.kind === 'keep') {
      close(out.current);
      lastKept = out.current;
      continue;
    }
    if (out.kind === 'new') pending.push(out);
    keys.push(out.key);
  }
  close(undefined);
  return zones;
}

/** A change between the planned text and the live one, in planned-text offsets: [start, end) became `length` characters. */
interface Hunk {
  start: number;
  end: number;
  delta: number;
}

function hunksOf(base: string, live: string): Hunk[] {
  const hunks: Hunk[] = [];
  let shift = 0; // live offset - base offset, for the edits so far
  for (const e of textEdits(base, live)) {
    const at = e.at - shift;
    const last = hunks[hunks.length - 1];
    const size = 'insert' in e ? e.insert.length : -e.delete;
    const end = 'insert' in e ? at : at + e.delete;
    if (last && last.end === at) {
      last.end = end;
      last.delta += size;
    } else hunks.push({ start: at, end, delta: size });
    shift += size;
  }
  return hunks;
}

/**
 * The live text with the plan applied: the zones are moved past the changes
 * made since the plan (typing next to a reverted block stays where it was
 * typed). Returns the keys of the blocks whose zone was changed meanwhile
 * instead, when there are any.
 */
export function applyBlockRevert(plan: BlockRevertPlan, live: string): { text: string } | { conflicts: string[] } {
  const hunks = plan.base === live ? [] : hunksOf(plan.base, live);
  const conflicts: string[] = [];
  const placed: { start: number; end: number; text: string }[] = [];
  for (const zone of plan.zones) {
    const inside = hunks.some((h) =>
      h.start === h.end ? zone.start < h.start && h.start < zone.end : h.start < zone.end && zone.start < h.end,
    );
    if (inside) {
      conflicts.push(...zone.keys);
      continue;
    }
    // Typing at a zone's start belongs before it, at its end after it.
    const shiftTo = (pos: number, atEnd: boolean) =>
      pos +
      hunks
        .filter((h) => (atEnd ? h.end < pos || (h.end === pos && h.start < h.end) : h.end <= pos))
        .reduce((n, h) => n + h.delta, 0);
    // An empty zone (an insertion before a kept block) goes before typing at that block's start.
    const end = shiftTo(zone.end, true);
    placed.push({ start: zone.start === zone.end ? end : shiftTo(zone.start, false), end, text: zone.text });
  }
  if (conflicts.length > 0) return { conflicts };
  let text = live;
  for (const z of placed.reverse()) text = text.slice(0, z.start) + z.text + text.slice(z.end);
  return { text };
}
