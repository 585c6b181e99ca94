import { dominantEol, joinLines, type Line } from './lines';
import type { ParsedSummary, SummaryEntry } from './summary-parse';

/**
 * Writes SUMMARY.md for a new page structure, changing only the entries whose structure changed.
 * An entry that keeps its page, title, target and place keeps its exact lines (list marker,
 * indentation, wrapping), and so do the lines between entries while an entry keeps its
 * neighbour; a moved entry is re-indented under its new parent with the file's own indentation
 * unit; a renamed or retargeted one has only its link text or href replaced; new entries are
 * written in the file's style. Entries the reader did not take (their file was missing) stay where
 * they were. Nothing changed, nothing written: the text comes back identical.
 */

/** One entry the new SUMMARY.md must hold, in order. */
export interface WantedEntry {
  id: string;
  kind: 'group' | 'page';
  title: string;
  /** The href to write, relative to SUMMARY.md (pages). */
  href?: string;
  /** Id of the entry it is listed under (a page, or its group). */
  parent?: string;
  /** Index of its entry in the old SUMMARY.md, when it was listed. */
  old?: number;
  titleChanged: boolean;
  hrefChanged: boolean;
}

interface OutItem {
  /** Old entry index (entries that were listed, and entries kept because the reader skipped them). */
  old?: number;
  wanted?: WantedEntry;
  own: Line[];
  indent: string;
  /** Whether its indentation differs from what the file had (its children then move with it). */
  reindented: boolean;
}

const LIST_MARKER = /^([ \t]*)([*+-]|\d+[.)])([ \t]+)/;
const FIRST_LINK = /\[((?:\\.|[^[\]\\])*)\]\(\s*(<[^>\n]*>|[^\s)]+)/;
const HEADING_LINE = /^([ \t]*#{2,6}[ \t]+)(.*?)([ \t]*(?:<a\b[^>]*>[ \t]*<\/a>)?[ \t]*#*[ \t]*)$/;

const escapeLinkText = (title: string) => title.replace(/([[\]\\])/g, '\\$1').replace(/\s*\n\s*/g, ' ');
const indentOf = (text: string) => /^[ \t]*/.exec(text)![0];
const isBlankLine = (line: Line) => line.text.trim() === '';

/** The file's list marker and nesting unit, from its first entries (GitBook's `*` and two spaces otherwise). */
function styleOf(old: ParsedSummary | undefined): { marker: string; unit: string } {
  let marker = '*';
  let unit = '  ';
  if (!old) return { marker, unit };
  const firstPage = old.entries.find((e) => e.kind === 'page');
  const m = firstPage && LIST_MARKER.exec(old.lines[firstPage.first]!.text);
  if (m && /[*+-]/.test(m[2]!)) marker = m[2]!;
  const nested = old.entries.find(
    (e) => e.kind === 'page' && e.parent !== undefined && old.entries[e.parent]!.kind === 'page',
  );
  if (nested) {
    const child = indentOf(old.lines[nested.first]!.text);
    const parent = indentOf(old.lines[old.entries[nested.parent!]!.first]!.text);
    if (child.startsWith(parent) && child.length > parent.length) unit = child.slice(parent.length);
  }
  return { marker, unit };
}

/** The entry's line rewritten for a new title, href or indentation; undefined when it must be written afresh. */
function editedLine(line: string, w: WantedEntry, indent: string | undefined): string | undefined {
  if (w.kind === 'group') {
    const m = HEADING_LINE.exec(line);
    return m ? m[1]! + w.title + m[3]! : undefined;
  }
  const link = FIRST_LINK.exec(line);
  if (!link) return undefined;
  let text = line;
  if (w.hrefChanged || w.titleChanged) {
    const label = w.titleChanged ? escapeLinkText(w.title) : link[1]!;
    const href = w.hrefChanged ? w.href! : link[2]!;
    const start = link.index;
    text = `${text.slice(0, start)}[${label}](${href}${text.slice(start + link[0].length)}`;
  }
  return indent === undefined ? text : indent + text.slice(indentOf(text).length);
}

function freshLines(w: WantedEntry, indent: string, marker: string): Line[] {
  return w.kind === 'group'
    ? [{ text: `## ${w.title.replace(/\s*\n\s*/g, ' ')}` }]
    : [{ text: `${indent}${marker} [${escapeLinkText(w.title)}](${w.href})` }];
}

/** Orders the output: the wanted entries, with each entry the reader skipped after the entry it followed. */
function outputOrder(wanted: readonly WantedEntry[], old: ParsedSummary | undefined, kept: ReadonlySet<number>) {
  const order: { wanted?: WantedEntry; old?: number }[] = wanted.map((w) => ({
    wanted: w,
    ...(w.old !== undefined ? { old: w.old } : {}),
  }));
  if (!old) return order;
  const listed = new Set(wanted.map((w) => w.old).filter((i) => i !== undefined));
  old.entries.forEach((_, i) => {
    if (!kept.has(i) || listed.has(i)) return;
    let at = 0;
    for (let p = i - 1; p >= 0; p--) {
      const pos = order.findIndex((o) => o.old === p);
      if (pos >= 0) {
        at = pos + 1;
        break;
      }
    }
    order.splice(at, 0, { old: i });
  });
  return order;
}

/**
 * The new SUMMARY.md text. `old` is the file as last synced (undefined: write a new one), `keep`
 * the old entries to leave in place although no wanted entry stands for them. Also answers, for
 * each entry of the text in order, the id of the page it stands for (undefined for a kept one).
 */
export function writeSummary(
  wanted: readonly WantedEntry[],
  old: ParsedSummary | undefined,
  keep: ReadonlySet<number> = new Set(),
): { text: string; ids: (string | undefined)[] } {
  const { marker, unit } = styleOf(old);
  const entries = old?.entries ?? [];
  const oldLines = old?.lines ?? [];
  const idOfOld = new Map(wanted.filter((w) => w.old !== undefined).map((w) => [w.old!, w.id]));
  // A parent that is gone (or was skipped) matches no new parent: its children are placed anew.
  const oldParentId = (e: SummaryEntry) =>
    e.parent === undefined ? undefined : (idOfOld.get(e.parent) ?? `#old${e.parent}`);
  const out: OutItem[] = [];
  const byId = new Map<string, OutItem>();
  for (const { wanted: w, old: o } of outputOrder(wanted, old, keep)) {
    const entry = o === undefined ? undefined : entries[o];
    const own = entry ? oldLines.slice(entry.first, entry.last + 1) : [];
    if (!w) {
      out.push({ old: o!, own, indent: indentOf(own[0]?.text ?? ''), reindented: false });
      continue;
    }
    const parent = w.parent === undefined ? undefined : byId.get(w.parent);
    const wantIndent = w.kind === 'page' && parent?.wanted?.kind === 'page' ? parent.indent + unit : '';
    let item: OutItem;
    if (!entry || entry.kind !== w.kind) {
      item = { wanted: w, own: freshLines(w, wantIndent, marker), indent: wantIndent, reindented: true };
    } else {
      const placed = oldParentId(entry) === w.parent && !(parent?.reindented ?? false);
      const indent = placed ? indentOf(own[0]!.text) : wantIndent;
      const reindented = indent !== indentOf(own[0]!.text);
      if (!reindented && !w.titleChanged && !w.hrefChanged) item = { wanted: w, old: o!, own, indent, reindented };
      else {
        const edited = own.length === 1 ? editedLine(own[0]!.text, w, reindented ? indent : undefined) : undefined;
        item = {
          wanted: w,
          old: o!,
          own: edited === undefined ? freshLines(w, indent, marker) : [{ ...own[0]!, text: edited }],
          indent,
          reindented,
        };
      }
    }
    out.push(item);
    byId.set(w.id, item);
  }
  return { text: assemble(out, old), ids: out.map((item) => item.wanted?.id) };
}

/** Puts the entries' lines together with the lines around them (see writeSummary). */
function assemble(out: readonly OutItem[], old: ParsedSummary | undefined): string {
  const entries = old?.entries ?? [];
  const lines = old?.lines ?? [];
  let preamble: Line[];
  let tail: Line[];
  if (entries.length > 0) {
    preamble = lines.slice(0, entries[0]!.first);
    tail = lines.slice(entries[entries.length - 1]!.last + 1);
  } else {
    preamble = old
      ? lines.slice(0, lines.length - (lines[lines.length - 1]?.text === '' ? 1 : 0))
      : [{ text: '# Table of contents' }];
    if (preamble.length > 0 && !isBlankLine(preamble[preamble.length - 1]!)) preamble.push({ text: '' });
    tail = [{ text: '' }];
  }
  /** The lines between an old entry and the one before it. */
  const leadingOf = (i: number) => (i === 0 ? [] : lines.slice(entries[i - 1]!.last + 1, entries[i]!.first));
  const result: Line[] = [...preamble];
  let previous: OutItem | undefined;
  for (const item of out) {
    // -1: the start of the file; -2: an entry that is new here.
    const previousOld = previous === undefined ? -1 : (previous.old ?? -2);
    if (item.old !== undefined && previousOld === item.old - 1) result.push(...leadingOf(item.old));
    else {
      if (item.old !== undefined) result.push(...leadingOf(item.old).filter((l) => !isBlankLine(l)));
      const isGroup = (i: OutItem | undefined) => (i?.wanted?.kind ?? entries[i?.old ?? -1]?.kind) === 'group';
      const needsBlank = previous !== undefined && (isGroup(item) || isGroup(previous));
      if (needsBlank && !isBlankLine(result[result.length - 1] ?? { text: '' })) result.push({ text: '' });
    }
    result.push(...item.own);
    previous = item;
  }
  result.push(...tail);
  return (old?.bom ?? '') + joinLines(result, dominantEol(lines));
}
