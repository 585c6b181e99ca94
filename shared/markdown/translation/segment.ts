import { PLACEHOLDER, placeholder } from './placeholders';

/**
 * A segment: one run of prose the engine translates (a paragraph, a heading, a table cell, a
 * title), as text with `⟦n⟧` placeholders for everything that must come back byte-exact, and what it
 * takes to put a translation back where the source was.
 */

/**
 * A range of the source that is not prose:
 * - `inline`: code, a link's `](target "title")`, an HTML tag… (becomes a placeholder);
 * - `line`: something that owns its line (a block tag `{% hint %}`, a hard break, `$$` math): it
 *   absorbs the line break(s) it touches, so it stays on its own line whatever the engine does;
 * - `joint`: a soft line break with the next line's container prefix (`\n> `, `\n  `): it becomes
 *   `\n` in the segment and the prefix is put back after each line break of the translation.
 * `glue` marks emphasis delimiters: `**` that opens must touch the word after it, one that closes the
 * word before it (CommonMark's flanking rules), so whitespace an engine puts there is removed.
 */
export interface Span {
  start: number;
  end: number;
  kind: 'inline' | 'line' | 'joint';
  glue?: 'after' | 'before';
}

export interface ProtectedText {
  text: string;
  glue?: 'after' | 'before';
}

export interface Segment {
  /** What the engine gets: the prose with placeholders `⟦1⟧`, `⟦2⟧`… */
  text: string;
  /** Where it came from in the source (UTF-16 offsets, end exclusive). */
  start: number;
  end: number;
  /** What placeholder n stands for, at index n - 1. */
  protected: readonly ProtectedText[];
  /** The source text of each soft line break (`\n> `), in order. */
  joints: readonly string[];
  /** What a line break of the translation becomes when the source had fewer (or none). */
  newline: string;
  /** A heading or a table cell: a line break would end it, so the translation's become spaces. */
  singleLine: boolean;
  /** A table cell: an unescaped `|` of the translation would split the cell. */
  tableCell: boolean;
}

export interface SegmentOptions {
  singleLine?: boolean;
  tableCell?: boolean;
  /** What a line break of the translation becomes when the source has none (default "\n"). */
  newline?: string;
}

const mergeable = (a: Span['kind'], b: Span['kind']) =>
  (a !== 'joint' && b !== 'joint') || (a === 'line' && b === 'joint') || (a === 'joint' && b === 'line');

function mergedKind(a: Span['kind'], b: Span['kind']): Span['kind'] {
  if (a === 'line' || b === 'line') return 'line';
  return a === 'joint' ? b : a;
}

function mergedGlue(a: Span, b: Span): Span['glue'] {
  const glues = new Set([a.glue, b.glue].filter((g) => g !== undefined));
  return glues.size === 1 ? [...glues][0] : undefined;
}

/**
 * Sorted spans, overlapping ones merged (protecting more is always safe), and touching ones merged
 * where that keeps placeholders few (`**[` is one) or keeps a line-owning span on its own line.
 */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    const overlaps = last && span.start < last.end;
    const touches = last && span.start === last.end && mergeable(last.kind, span.kind);
    if (last && (overlaps || touches)) {
      out[out.length - 1] = {
        start: last.start,
        end: Math.max(last.end, span.end),
        kind: mergedKind(last.kind, span.kind),
        glue: overlaps && span.end <= last.end ? last.glue : mergedGlue(last, span),
      };
    } else out.push({ ...span });
  }
  return out;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * The segment of `source[start, end)` with `spans` (merged) protected. Whitespace and line-owning
 * spans at either edge are left out of the segment (they are copied as they are), so the engine
 * sees `Some text`, not `{% hint %}\nSome text`.
 */
export function buildSegment(
  source: string,
  start: number,
  end: number,
  spans: readonly Span[],
  options: SegmentOptions = {},
): Segment {
  const inside = mergeSpans(spans).filter((s) => s.start >= start && s.end <= end);
  const startingAt = new Map(inside.map((s) => [s.start, s]));
  const endingAt = new Map(inside.map((s) => [s.end, s]));
  // Walk in from each edge one character at a time, so the walk never lands inside a span.
  for (;;) {
    const span = startingAt.get(start);
    if (span && span.kind !== 'inline' && span.end <= end) start = span.end;
    else if (!span && start < end && isSpace(source[start])) start++;
    else break;
  }
  for (;;) {
    const span = endingAt.get(end);
    if (span && span.kind !== 'inline' && span.start >= start) end = span.start;
    else if (!span && end > start && isSpace(source[end - 1])) end--;
    else break;
  }
  const kept = inside.filter((s) => s.start >= start && s.end <= end);
  const protectedTexts: ProtectedText[] = [];
  const joints: string[] = [];
  let text = '';
  let at = start;
  for (const span of kept) {
    text += source.slice(at, span.start);
    const raw = source.slice(span.start, span.end);
    if (span.kind === 'joint') {
      joints.push(raw);
      text += '\n';
    } else {
      protectedTexts.push(span.glue ? { text: raw, glue: span.glue } : { text: raw });
      text += placeholder(protectedTexts.length);
    }
    at = span.end;
  }
  text += source.slice(at, end);
  return {
    text,
    start,
    end,
    protected: protectedTexts,
    joints,
    newline: joints[0] ?? options.newline ?? '\n',
    singleLine: options.singleLine ?? false,
    tableCell: options.tableCell ?? false,
  };
}

/**
 * The source text for a translation of `segment`: line breaks made what they were in the source,
 * emphasis delimiters re-attached, `|` escaped in a table cell, and every placeholder replaced by
 * the bytes it stands for. A placeholder the segment does not have is dropped (the structure check
 * runs before this and fails the run instead).
 */
export function restoreSegment(segment: Segment, translation: string): string {
  let text = translation;
  if (segment.singleLine) text = text.replace(/[ \t]*\r?\n[ \t]*/g, ' ');
  else {
    let k = 0;
    text = text.replace(/[ \t]*\r?\n[ \t]*/g, () => segment.joints[k++] ?? segment.newline);
  }
  if (segment.tableCell) text = text.replace(/(?<!\\)((?:\\\\)*)\|/g, '$1\\|');
  text = text.replace(/⟦(\d+)⟧[ \t]+/g, (token, n: string) =>
    segment.protected[Number(n) - 1]?.glue === 'after' ? `⟦${n}⟧` : token,
  );
  text = text.replace(/[ \t]+⟦(\d+)⟧/g, (token, n: string) =>
    segment.protected[Number(n) - 1]?.glue === 'before' ? `⟦${n}⟧` : token,
  );
  return text.replace(PLACEHOLDER, (_token, n: string) => segment.protected[Number(n) - 1]?.text ?? '');
}

/**
 * `source` with each segment's range replaced by its restored translation (`undefined`: the source
 * bytes are kept). Segments must be in source order and not overlap.
 */
export function rebuildText(
  source: string,
  segments: readonly Segment[],
  translations: readonly (string | undefined)[],
): string {
  let out = '';
  let at = 0;
  segments.forEach((segment, i) => {
    const translation = translations[i];
    if (translation === undefined) return;
    out += source.slice(at, segment.start) + restoreSegment(segment, translation);
    at = segment.end;
  });
  return out + source.slice(at);
}
