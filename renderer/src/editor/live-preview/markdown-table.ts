/**
 * GFM table source -> rows of cell text and column alignments, for the
 * rendered table widget. Pure (unit-tested); the widget builds DOM from it
 * with text nodes only, so nothing in a cell is ever parsed as HTML.
 */

export type Align = 'left' | 'center' | 'right' | undefined;

export interface ParsedTable {
  header: string[];
  aligns: Align[];
  rows: string[][];
}

/** Splits one table row on unescaped pipes, dropping the optional outer pipes. */
export function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      cell += c;
    } else if (c === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : right ? 'right' : left ? 'left' : undefined;
}

/** Parses a table's source lines (header, delimiter, body rows). */
export function parseTable(source: string): ParsedTable {
  const lines = source.split('\n').filter((l) => l.trim() !== '');
  const header = splitRow(lines[0] ?? '');
  const aligns = splitRow(lines[1] ?? '').map(alignOf);
  const rows = lines.slice(2).map((l) => {
    const cells = splitRow(l);
    return header.map((_, i) => cells[i] ?? '');
  });
  return { header, aligns, rows };
}

/** A piece of inline text for display: plain, strong, emphasis, code, struck or link text. */
export interface InlinePiece {
  text: string;
  style?: 'strong' | 'em' | 'code' | 'strike' | 'link';
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|~~([^~]+)~~|\*([^*]+)\*|_([^_]+)_|!?\[([^\]]*)\]\([^)]*\)/g;

/** Inline markdown of a cell or title -> display pieces (the common marks; anything else stays text). */
export function inlinePieces(text: string): InlinePiece[] {
  const pieces: InlinePiece[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) pieces.push({ text: text.slice(last, m.index) });
    const [, code, strong1, strong2, strike, em1, em2, link] = m;
    if (code !== undefined) pieces.push({ text: code, style: 'code' });
    else if (strong1 !== undefined || strong2 !== undefined)
      pieces.push({ text: (strong1 ?? strong2)!, style: 'strong' });
    else if (strike !== undefined) pieces.push({ text: strike, style: 'strike' });
    else if (em1 !== undefined || em2 !== undefined) pieces.push({ text: (em1 ?? em2)!, style: 'em' });
    else pieces.push({ text: link ?? '', style: 'link' });
    last = m.index + m[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
