import type { Element, ElementContent, Root, Text } from 'hast';
import { diffArrays } from 'diff';
import { toHast } from 'mdast-util-to-hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { parseMarkdown } from '../../../shared/markdown/parse';
import { liftGitbookBlocks, READING_SCHEMA, separateLiquidTags } from '../preview/gitbook-blocks';
import { wordDiff, type DiffPart, type DiffStats } from './compute';

/**
 * The rendered, word-level diff of two versions of a page, as a reader sees
 * it (headings, lists, tables, code, GitBook blocks). Both texts are rendered
 * with the preview's pipeline (sanitized hast); their top-level blocks are
 * aligned by their rendered HTML; an added or removed block is marked whole,
 * and a changed block is shown in its new form with the removed words put
 * back as <del> and the added ones wrapped in <ins>, inside its formatting.
 * Only sanitized nodes and our own ins/del/span elements reach the HTML.
 * Pure (no DOM), so it is unit-tested on its own.
 */

type Block = ElementContent;

/** One step of the block alignment. */
export type BlockChange =
  | { kind: 'same'; block: Block }
  | { kind: 'added' | 'removed'; block: Block }
  | { kind: 'changed'; before: Block; after: Block };

export interface RenderedDiff {
  /** Safe HTML of the whole diff. */
  html: string;
  stats: DiffStats;
  /** How many top-level blocks were added, removed or changed. */
  changedBlocks: number;
}

/** Longest the block alignment may run (ms) before every block is shown as replaced. */
const TIMEOUT_MS = 500;
/** How far ahead a removed block looks for the added block it became (keeps a long run linear). */
const PAIR_WINDOW = 20;
/** Below this share of unchanged text, two blocks read better as one removed and one added. */
const MIN_SIMILARITY = 0.35;
/** Elements whose whitespace children must not hold a mark (the browser would move it out of a table). */
const STRUCTURAL = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'ul', 'ol']);

/** The top-level blocks of `markdown`, rendered and sanitized like the preview renders them. */
export function renderBlocks(markdown: string): Block[] {
  const mdast = parseMarkdown(separateLiquidTags(markdown));
  liftGitbookBlocks(mdast);
  const hast = sanitize(toHast(mdast) as Root, READING_SCHEMA) as Root;
  dropFileSources(hast);
  return hast.children.filter((c): c is Block => c.type === 'element' || (c.type === 'text' && c.value.trim() !== ''));
}

/** `/files/<id>` images need a signed URL the diff does not have: they show their alt text instead of a broken fetch. */
function dropFileSources(node: Root | Element): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (
      child.tagName === 'img' &&
      typeof child.properties.src === 'string' &&
      child.properties.src.startsWith('/files/')
    )
      delete child.properties.src;
    dropFileSources(child);
  }
}

const keyOf = (block: Block) => toHtml(block);
const tagOf = (block: Block) =>
  block.type === 'element' ? `${block.tagName}.${String(block.properties.className ?? '')}` : '#text';

/** Aligns the blocks of two versions: same, added, removed, or changed (a pair to diff word by word). */
export function alignBlocks(before: Block[], after: Block[]): BlockChange[] {
  const parts = diffArrays(before.map(keyOf), after.map(keyOf), { timeout: TIMEOUT_MS }) ?? [
    { value: before.map(keyOf), removed: true, added: false, count: before.length },
    { value: after.map(keyOf), added: true, removed: false, count: after.length },
  ];
  const out: BlockChange[] = [];
  let i = 0; // index in `before`
  let j = 0; // index in `after`
  let removed: Block[] = [];
  let added: Block[] = [];
  const flush = () => {
    out.push(...pairRun(removed, added));
    removed = [];
    added = [];
  };
  for (const part of parts) {
    const n = part.value.length;
    if (part.removed) removed.push(...before.slice(i, (i += n)));
    else if (part.added) added.push(...after.slice(j, (j += n)));
    else {
      flush();
      for (let k = 0; k < n; k++) out.push({ kind: 'same', block: after[j + k]! });
      i += n;
      j += n;
    }
  }
  flush();
  return out;
}

/** Within a run of replaced blocks, pairs each removed block with the added block of the same kind it most likely became. */
function pairRun(removed: Block[], added: Block[]): BlockChange[] {
  const out: BlockChange[] = [];
  let pending: Block[] = [];
  let j = 0;
  for (const r of removed) {
    let match = -1;
    for (let k = j; k < Math.min(added.length, j + PAIR_WINDOW); k++) {
      if (tagOf(added[k]!) === tagOf(r) && similarity(r, added[k]!) >= MIN_SIMILARITY) {
        match = k;
        break;
      }
    }
    if (match < 0) {
      pending.push(r);
      continue;
    }
    for (const p of pending) out.push({ kind: 'removed', block: p });
    pending = [];
    for (; j < match; j++) out.push({ kind: 'added', block: added[j]! });
    out.push({ kind: 'changed', before: r, after: added[match]! });
    j = match + 1;
  }
  for (const p of pending) out.push({ kind: 'removed', block: p });
  for (; j < added.length; j++) out.push({ kind: 'added', block: added[j]! });
  return out;
}

/** Share of the two blocks' text left unchanged by a word diff (0..1). */
function similarity(a: Block, b: Block): number {
  const ta = textOf(a);
  const tb = textOf(b);
  const longest = Math.max(ta.length, tb.length);
  if (!longest) return 1;
  const same = wordDiff(ta, tb).reduce((n, p) => (p.kind === 'same' ? n + p.text.trim().length : n), 0);
  return same / longest;
}

interface TextSlot {
  node: Text;
  parent: Element;
  start: number;
  /** Whitespace between rows, cells or items: a mark there would land outside the cell. */
  structural: boolean;
}

function textSlots(block: Element): TextSlot[] {
  const slots: TextSlot[] = [];
  let offset = 0;
  const walk = (el: Element) => {
    for (const child of el.children) {
      if (child.type === 'text') {
        slots.push({ node: child, parent: el, start: offset, structural: STRUCTURAL.has(el.tagName) });
        offset += child.value.length;
      } else if (child.type === 'element') walk(child);
    }
  };
  walk(block);
  return slots;
}

function textOf(block: Block): string {
  if (block.type === 'text') return block.value;
  if (block.type !== 'element') return '';
  return textSlots(block)
    .map((s) => s.node.value)
    .join('');
}

const el = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const text = (value: string): Text => ({ type: 'text', value });
/** Screen readers do not announce <ins>/<del>: the meaning is in hidden text too. */
const srOnly = (value: string) => el('span', { className: ['diff-sr'] }, [text(value)]);

/** An inline mark of added or removed words. */
export function wordMark(kind: 'added' | 'removed', value: string): Element {
  return el(
    kind === 'added' ? 'ins' : 'del',
    { className: [`diff-${kind}`], dataDiff: kind, title: kind === 'added' ? 'Added' : 'Removed' },
    [srOnly(kind === 'added' ? '[added: ' : '[removed: '), text(value), srOnly(']')],
  );
}

/** Whole blocks added or removed (consecutive ones share one mark, read as one passage). */
function blockMark(kind: 'added' | 'removed', block: Block): Element {
  return el(
    kind === 'added' ? 'ins' : 'del',
    {
      className: ['diff-block', `diff-block-${kind}`],
      dataDiff: `block-${kind}`,
      title: kind === 'added' ? 'Added' : 'Removed',
    },
    [
      srOnly(kind === 'added' ? 'Added: ' : 'Removed: '),
      block,
      srOnly(kind === 'added' ? ' (end of addition)' : ' (end of removal)'),
    ],
  );
}

/**
 * The new block with the word diff from the old one marked inside it, or
 * undefined when their text is the same (a formatting-only change, shown as a
 * removed and an added block instead).
 */
export function markChangedBlock(before: Block, after: Block): { block: Block; parts: DiffPart[] } | undefined {
  if (after.type !== 'element') return undefined;
  const slots = textSlots(after);
  const newText = slots.map((s) => s.node.value).join('');
  const parts = coalesce(wordDiff(textOf(before), newText));
  if (!parts.some((p) => p.kind !== 'same')) return undefined;
  const copy = structuredClone(after);
  const copySlots = textSlots(copy);
  // What each text node becomes, in order.
  const pieces = new Map<Text, ElementContent[]>(copySlots.map((s) => [s.node, []]));
  const trailing: ElementContent[] = [];
  const slotAt = (pos: number) => {
    let k = copySlots.findIndex((s) => pos < s.start + s.node.value.length);
    if (k < 0) k = copySlots.length - 1;
    return k;
  };
  let pos = 0;
  for (const part of parts) {
    if (part.kind === 'removed') {
      // Put back where it stood. Lists fill in document order, so pushing now places it at `pos`;
      // whitespace between cells or items cannot hold it: the nearest text node that can does.
      const k = slotAt(pos);
      const mark = wordMark('removed', part.text);
      const home =
        copySlots.slice(k).find((s) => !s.structural) ??
        copySlots
          .slice(0, k)
          .reverse()
          .find((s) => !s.structural);
      if (home) pieces.get(home.node)!.push(mark);
      else trailing.push(mark);
      continue;
    }
    // Same or added: spread over the text nodes it covers.
    let rest = part.text;
    while (rest) {
      const k = slotAt(pos);
      const slot = copySlots[k]!;
      const take = Math.min(rest.length, slot.start + slot.node.value.length - pos);
      const chunk = rest.slice(0, take);
      const list = pieces.get(slot.node)!;
      list.push(part.kind === 'added' && chunk.trim() && !slot.structural ? wordMark('added', chunk) : text(chunk));
      rest = rest.slice(take);
      pos += take;
      if (take <= 0) break; // past the end (cannot happen: parts cover the new text exactly)
    }
  }
  for (const slot of copySlots) {
    const list = pieces.get(slot.node)!;
    const index = slot.parent.children.indexOf(slot.node);
    slot.parent.children.splice(index, 1, ...list);
  }
  if (trailing.length) copy.children.push(...trailing);
  return { block: copy, parts };
}

/**
 * Joins changes split only by a shared space ("command line tool" -> "Folio CLI"
 * comes out of jsdiff as command/Folio, " ", line tool/CLI) into one removed
 * run then one added run, which reads as a phrase replaced.
 */
export function coalesce(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed) out.push({ kind: 'removed', text: removed });
    if (added) out.push({ kind: 'added', text: added });
    removed = added = '';
  };
  parts.forEach((part, i) => {
    if (part.kind === 'removed') removed += part.text;
    else if (part.kind === 'added') added += part.text;
    else if ((removed || added) && !part.text.trim() && parts[i + 1] && parts[i + 1]!.kind !== 'same') {
      removed += part.text;
      added += part.text;
    } else {
      flush();
      out.push(part);
    }
  });
  flush();
  return out;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** The rendered diff of two markdown texts. */
export function renderedDiff(before: string, after: string): RenderedDiff {
  const changes = alignBlocks(renderBlocks(before), renderBlocks(after));
  const stats: DiffStats = { added: 0, removed: 0 };
  let changedBlocks = 0;
  const out: ElementContent[] = [];
  const whole = (kind: 'added' | 'removed', block: Block) => {
    stats[kind] += words(textOf(block));
    const last = out[out.length - 1];
    if (last?.type === 'element' && last.properties.dataDiff === `block-${kind}`)
      last.children.splice(last.children.length - 1, 0, block);
    else out.push(blockMark(kind, block));
  };
  for (const change of changes) {
    if (change.kind === 'same') out.push(change.block);
    else if (change.kind !== 'changed') {
      changedBlocks++;
      whole(change.kind, change.block);
    } else {
      changedBlocks++;
      const marked = markChangedBlock(change.before, change.after);
      if (!marked) {
        whole('removed', change.before);
        whole('added', change.after);
        continue;
      }
      for (const p of marked.parts) if (p.kind !== 'same') stats[p.kind] += words(p.text);
      out.push(
        el('div', { className: ['diff-block', 'diff-block-changed'], dataDiff: 'block-changed' }, [marked.block]),
      );
    }
  }
  return { html: toHtml({ type: 'root', children: out }), stats, changedBlocks };
}
