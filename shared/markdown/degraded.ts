import type { MarkdownAnalysis } from './analyze';
import type { DocBlock, JSONDocument } from './document-types';
import type { LimitReason } from './limits';

/**
 * The degraded forms of markdown that is not formatted: over a limit
 * (limits.ts), too slow to parse within the server's time budget, or failing
 * to parse. The page is still served, as preformatted text, and marked so
 * clients can tell (`document.data.degraded`, a CSS class on published pages).
 * Building these is linear in the text: no parsing.
 */

/** Why a text was not formatted. */
export type DegradedReason = LimitReason | 'timeout' | 'error';

/** What clients see in `document.data.degraded`. */
export interface Degradation {
  reason: DegradedReason;
  /** For people: what made the text too complex. */
  message: string;
}

/** Longest degraded text indexed for search (to_tsvector has its own limits). */
const MAX_INDEXED_CHARS = 256 * 1024;

/**
 * The markdown as one code block (one code line per line), with
 * `data.degraded` saying why. Valid against GitBook's JSONDocument schema
 * (`data` takes additional properties).
 */
export function degradedDocument(markdown: string, degraded: Degradation): JSONDocument {
  const lines: DocBlock[] = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
      isVoid: false,
    }));
  return {
    object: 'document',
    data: { degraded: { reason: degraded.reason, message: degraded.message } },
    nodes: [{ object: 'block', type: 'code', data: {}, nodes: lines, isVoid: false }],
  };
}

/**
 * No links, and the raw text as the page's one section: the page stays
 * findable by search although its structure is unknown.
 */
export function degradedAnalysis(markdown: string): MarkdownAnalysis {
  const body = markdown.length > MAX_INDEXED_CHARS ? markdown.slice(0, MAX_INDEXED_CHARS) : markdown;
  return { links: [], sections: body.trim() === '' ? [] : [{ id: '', title: '', level: 0, body }] };
}

/** The sentence shown above a degraded page. */
export function degradedNote(degraded: Degradation): string {
  return `This page is shown as plain text: ${degraded.message}.`;
}
