import { EditorSelection, type EditorState, type Line, type TransactionSpec } from '@codemirror/state';

/**
 * Formatting commands as pure functions of an EditorState: each returns the
 * transaction that formats the markdown (or null when it does not apply).
 * They only change text, so the edits go through the Y.Text binding like
 * typing does, sync to collaborators and undo with the user's own
 * UndoManager. No DOM here: the unit tests run them on bare EditorStates.
 */

/** A formatting command: the transaction it makes on `state`, or null. */
export type StateCommand = (state: EditorState) => TransactionSpec | null;

/** Marks a selection in a block template: text between two marks is selected, one mark is the cursor. */
export const CURSOR = '\u2038';

/** Splits a template at its CURSOR marks: the text, and the selection offsets in it. */
export function parseTemplate(template: string): { text: string; anchor: number; head: number } {
  const first = template.indexOf(CURSOR);
  if (first < 0) return { text: template, anchor: template.length, head: template.length };
  const rest = template.slice(first + 1);
  const second = rest.indexOf(CURSOR);
  const text = template.slice(0, first) + rest.replace(CURSOR, '');
  return { text, anchor: first, head: second < 0 ? first : first + second };
}

/**
 * Wraps each selection in `marker` (`**`, `_`, `~~`, `` ` ``), or unwraps it
 * when it is already wrapped (markers just outside or just inside the
 * selection). An empty selection inserts `marker placeholder marker` with
 * the placeholder selected, so typing replaces it.
 */
export function toggleInline(marker: string, placeholder: string): StateCommand {
  const n = marker.length;
  return (state) =>
    state.changeByRange((range) => {
      const doc = state.doc;
      const before = doc.sliceString(Math.max(0, range.from - n), range.from);
      const after = doc.sliceString(range.to, Math.min(doc.length, range.to + n));
      if (before === marker && after === marker) {
        return {
          changes: [
            { from: range.from - n, to: range.from },
            { from: range.to, to: range.to + n },
          ],
          range: EditorSelection.range(range.from - n, range.to - n),
        };
      }
      const text = doc.sliceString(range.from, range.to);
      if (text.length > 2 * n && text.startsWith(marker) && text.endsWith(marker)) {
        return {
          changes: { from: range.from, to: range.to, insert: text.slice(n, -n) },
          range: EditorSelection.range(range.from, range.to - 2 * n),
        };
      }
      if (range.empty) {
        return {
          changes: { from: range.from, insert: marker + placeholder + marker },
          range: EditorSelection.range(range.from + n, range.from + n + placeholder.length),
        };
      }
      return {
        changes: [
          { from: range.from, insert: marker },
          { from: range.to, insert: marker },
        ],
        range: EditorSelection.range(range.from + n, range.to + n),
      };
    });
}

/**
 * Makes the selection a link: `[selected](https://)` with the URL selected
 * to be typed over; with nothing selected, `[link text](https://)` with the
 * text selected.
 */
export const insertLink: StateCommand = (state) =>
  state.changeByRange((range) => {
    const text = state.doc.sliceString(range.from, range.to);
    const url = 'https://';
    if (range.empty) {
      const label = 'link text';
      return {
        changes: { from: range.from, insert: `[${label}](${url})` },
        range: EditorSelection.range(range.from + 1, range.from + 1 + label.length),
      };
    }
    const urlFrom = range.from + text.length + 3;
    return {
      changes: { from: range.from, to: range.to, insert: `[${text}](${url})` },
      range: EditorSelection.range(urlFrom, urlFrom + url.length),
    };
  });

/** What a line starts with: one of the block prefixes the commands set. */
export type LineKind = 'paragraph' | 'h1' | 'h2' | 'h3' | 'h4' | 'bullet' | 'numbered' | 'task' | 'quote';

/** Any prefix a line-kind command replaces: heading hashes, list markers (with a task box), a quote marker. */
const LINE_PREFIX = /^(\s*)(#{1,6}\s+|>\s?|(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?)?/;

/** The kind of a line, judged by its prefix. */
export function lineKind(text: string): LineKind {
  const prefix = LINE_PREFIX.exec(text)?.[2] ?? '';
  const heading = /^(#{1,6})\s/.exec(prefix);
  if (heading) return heading[1]!.length <= 4 ? (`h${heading[1]!.length}` as LineKind) : 'paragraph';
  if (prefix.startsWith('>')) return 'quote';
  if (/\[[ xX]\]/.test(prefix)) return 'task';
  if (/^\d/.test(prefix)) return 'numbered';
  if (prefix) return 'bullet';
  return 'paragraph';
}

function prefixFor(kind: LineKind, index: number): string {
  switch (kind) {
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
      return `${'#'.repeat(Number(kind.slice(1)))} `;
    case 'bullet':
      return '- ';
    case 'numbered':
      return `${index + 1}. `;
    case 'task':
      return '- [ ] ';
    case 'quote':
      return '> ';
    case 'paragraph':
      return '';
  }
}

function selectedLines(state: EditorState): Line[] {
  const lines: Line[] = [];
  const seen = new Set<number>();
  for (const range of state.selection.ranges) {
    const last = state.doc.lineAt(range.to).number;
    for (let n = state.doc.lineAt(range.from).number; n <= last; n++) {
      if (seen.has(n)) continue;
      seen.add(n);
      lines.push(state.doc.line(n));
    }
  }
  return lines;
}

/** The change that gives `line` the prefix of `kind` (replacing whatever block prefix it had). */
export function linePrefixChange(line: Line, kind: LineKind, index = 0): { from: number; to: number; insert: string } {
  const match = LINE_PREFIX.exec(line.text)!;
  const indent = match[1] ?? '';
  const old = match[2] ?? '';
  // A heading or quote drops the indentation a list item had; list kinds keep it (nesting).
  const keepIndent = kind === 'bullet' || kind === 'numbered' || kind === 'task';
  return {
    from: line.from + (keepIndent ? indent.length : 0),
    to: line.from + indent.length + old.length,
    insert: prefixFor(kind, index),
  };
}

/**
 * Gives every selected line the prefix of `kind`; when they all have it
 * already, makes them plain paragraphs again (the toolbar buttons toggle).
 */
export function setLineKind(kind: LineKind): StateCommand {
  return (state) => {
    const lines = selectedLines(state);
    const target = lines.every((line) => lineKind(line.text) === kind) ? 'paragraph' : kind;
    const changes = state.changes(lines.map((line, i) => linePrefixChange(line, target, i)));
    // A selection keeps covering its lines, prefixes included; a cursor stays after the prefix.
    const selection = EditorSelection.create(
      state.selection.ranges.map((r) =>
        r.empty
          ? EditorSelection.cursor(changes.mapPos(r.head, 1))
          : EditorSelection.range(
              changes.mapPos(r.anchor, r.anchor < r.head ? -1 : 1),
              changes.mapPos(r.head, r.anchor < r.head ? 1 : -1),
            ),
      ),
      state.selection.mainIndex,
    );
    return { changes, selection };
  };
}

/**
 * Inserts a block template (CURSOR marks say what ends up selected) in place
 * of `from..to`, on lines of its own: blank lines separate it from text
 * before and after, as markdown blocks need, and a block at the end of the
 * page gets an empty line after it to keep writing on.
 */
export function insertBlockAt(state: EditorState, from: number, to: number, template: string): TransactionSpec {
  const { text, anchor, head } = parseTemplate(template);
  const doc = state.doc;
  const startLine = doc.lineAt(from);
  const endLine = doc.lineAt(to);
  const before = doc.sliceString(startLine.from, from);
  const after = doc.sliceString(to, endLine.to);
  let prefix = '';
  if (before.trim() !== '') prefix = '\n\n';
  else if (startLine.number > 1 && doc.line(startLine.number - 1).text.trim() !== '') prefix = '\n';
  let suffix = '';
  if (after.trim() !== '') suffix = '\n\n';
  else if (endLine.number < doc.lines) {
    if (doc.line(endLine.number + 1).text.trim() !== '') suffix = '\n';
  } else suffix = '\n';
  // Whitespace-only text around the insertion point is dropped with it.
  const start = before.trim() === '' ? startLine.from : from;
  const end = after.trim() === '' ? endLine.to : to;
  const base = start + prefix.length;
  return {
    changes: { from: start, to: end, insert: prefix + text + suffix },
    selection: EditorSelection.single(base + anchor, base + head),
    scrollIntoView: true,
  };
}

/** insertBlockAt over the main selection; selected text replaces the template's selected placeholder. */
export function insertBlock(template: string): StateCommand {
  return (state) => {
    const { from, to } = state.selection.main;
    const selected = state.doc.sliceString(from, to);
    let filled = template;
    if (selected && !selected.includes('\n') && template.split(CURSOR).length === 3) {
      const [a, , c] = template.split(CURSOR);
      filled = `${a}${CURSOR}${selected}${CURSOR}${c}`;
    }
    return insertBlockAt(state, from, to, filled);
  };
}

/** Inserts plain text (an image's markdown, a pasted conversion) at the main selection, cursor after it. */
export function insertText(state: EditorState, text: string): TransactionSpec {
  const { from, to } = state.selection.main;
  return {
    changes: { from, to, insert: text },
    selection: { anchor: from + text.length },
    scrollIntoView: true,
  };
}
