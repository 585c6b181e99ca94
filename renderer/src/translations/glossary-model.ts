import type { GlossaryEntry, GlossaryOperation } from './translations-api';

/**
 * The glossary editor's draft, as pure functions: the rows being edited (the saved entries, new
 * rows, rows marked for deletion), the columns (the languages in use), each term's check (the
 * server's rule: 1 to 255 characters on one line) and the one list of operations a save sends.
 */

/** The server's bound on a term. */
export const TERM_MAX = 255;

/** One row of the editor: a saved entry (with `id`) or a new one, and its terms as typed. */
export interface GlossaryRow {
  /** Stable across edits (the entry's id, or a made-up one for a new row): keys the table's rows. */
  key: string;
  id?: string;
  terms: Record<string, string>;
  /** What the server holds, for a saved entry (to send only what changed). */
  saved?: Record<string, string>;
  deleted: boolean;
}

let counter = 0;

export function rowsFrom(entries: GlossaryEntry[], sortBy?: string): GlossaryRow[] {
  const rows = entries.map((e) => ({
    key: e.id,
    id: e.id,
    terms: { ...e.translations },
    saved: e.translations,
    deleted: false,
  }));
  if (sortBy) rows.sort((a, b) => (a.terms[sortBy] ?? '').localeCompare(b.terms[sortBy] ?? ''));
  return rows;
}

export function newRow(): GlossaryRow {
  return { key: `new-${++counter}`, terms: {}, deleted: false };
}

/** The columns: the languages in use first (in that order), then any other language an entry has. */
export function glossaryLanguages(inUse: string[], entries: { terms: Record<string, string> }[]): string[] {
  const out = [...new Set(inUse)];
  for (const entry of entries)
    for (const [code, term] of Object.entries(entry.terms)) if (term && !out.includes(code)) out.push(code);
  return out;
}

/** Why a term cannot be saved, or undefined when it can (an empty cell is "no term in that language"). */
export function termError(text: string): string | undefined {
  const term = text.trim();
  if (term === '') return undefined;
  if (/[\r\n\u2028\u2029]/.test(term)) return 'A term is one line: remove the line break.';
  if ([...term].length > TERM_MAX) return `At most ${TERM_MAX} characters (this one has ${[...term].length}).`;
  return undefined;
}

/** The terms to send: trimmed, empty ones left out. */
export function cleanTerms(terms: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, text] of Object.entries(terms)) if (text.trim()) out[code] = text.trim();
  return out;
}

/** The problems of a draft: per row key, a message for the row and per language a message for a cell. */
export interface GlossaryProblems {
  rows: Map<string, string>;
  cells: Map<string, Map<string, string>>;
  count: number;
}

export function checkRows(rows: GlossaryRow[]): GlossaryProblems {
  const problems: GlossaryProblems = { rows: new Map(), cells: new Map(), count: 0 };
  for (const row of rows) {
    if (row.deleted) continue;
    const cells = new Map<string, string>();
    for (const [code, text] of Object.entries(row.terms)) {
      const error = termError(text);
      if (error) cells.set(code, error);
    }
    if (cells.size) problems.cells.set(row.key, cells);
    problems.count += cells.size;
    // A new row left empty is dropped on save; a saved entry emptied would be a silent delete.
    if (row.id && Object.keys(cleanTerms(row.terms)).length === 0) {
      problems.rows.set(row.key, 'Enter at least one term, or delete the row.');
      problems.count += 1;
    }
  }
  return problems;
}

function sameTerms(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** The operations that turn the saved glossary into the draft (inserts, updates of changed rows, deletes). */
export function operationsFor(rows: GlossaryRow[]): GlossaryOperation[] {
  const ops: GlossaryOperation[] = [];
  for (const row of rows) {
    const terms = cleanTerms(row.terms);
    if (row.id && row.deleted) ops.push({ type: 'delete', id: row.id });
    else if (row.deleted) continue;
    else if (!row.id) {
      if (Object.keys(terms).length) ops.push({ type: 'insert', translations: terms });
    } else if (!sameTerms(terms, row.saved ?? {})) ops.push({ type: 'update', id: row.id, translations: terms });
  }
  return ops;
}
