import { isMap, isScalar, parseDocument, stringify, type Node, type Pair } from 'yaml';
import type { Eol } from './lines';
import type { PageFields } from './types';

/**
 * A page file's front matter (YAML between `---` lines): which keys are Folio's page fields and
 * how to change one of them without touching the others. GitBook keeps `description`, `icon`
 * (a Font Awesome name or an emoji) and `hidden` there, plus keys Folio does not know (`layout`,
 * `vars`, `if`…): an edit replaces only the lines of the key it changes, found through the `yaml`
 * Document API's source ranges, so key order, quoting, comments and unknown keys stay as written.
 */

/** The YAML of a front matter block (between its fences), decoded; `valid` is false when it cannot be edited safely. */
export interface FrontMatter {
  valid: boolean;
  /** Top-level keys, in order. */
  keys: string[];
  values: Record<string, unknown>;
}

/** The front matter's fence lines: `---` first, then `---` (or YAML's `...`) closing it. */
export const isOpeningFence = (line: string): boolean => /^---[ \t]*$/.test(line);
export const isClosingFence = (line: string): boolean => /^(?:---|\.\.\.)[ \t]*$/.test(line);

export function readFrontMatter(yaml: string): FrontMatter {
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0) return { valid: false, keys: [], values: {} };
  if (doc.contents === null) return { valid: true, keys: [], values: {} };
  if (!isMap(doc.contents)) return { valid: false, keys: [], values: {} };
  const keys: string[] = [];
  const values: Record<string, unknown> = {};
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    keys.push(key);
    values[key] = isScalar(pair.value) ? pair.value.value : (pair.value as Node | null)?.toJSON();
  }
  return { valid: true, keys, values };
}

/** A unicode emoji (not a Font Awesome name, and not GitBook's hex form, which icon names can look like). */
const UNICODE_EMOJI = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f)+$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
export const isUnicodeEmoji = (value: string): boolean => UNICODE_EMOJI.test(value) && PICTOGRAPHIC.test(value);

const text = (value: unknown): string | undefined =>
  value === null || value === undefined || typeof value === 'object' ? undefined : String(value);

/** The page fields front matter gives, and the title when it has a `title` key. */
export function fieldsOf(fm: FrontMatter): PageFields & { title?: string } {
  const v = fm.values;
  const fields: PageFields & { title?: string } = {};
  const description = text(v.description);
  if (description) fields.description = description;
  const icon = text(v.icon);
  if (icon) {
    if (isUnicodeEmoji(icon)) fields.emoji = icon;
    else fields.icon = icon;
  }
  const emoji = text(v.emoji);
  if (emoji) fields.emoji = emoji;
  if (v.hidden === true || v.hidden === 'true') fields.hidden = true;
  const title = text(v.title);
  if (title) fields.title = title;
  return fields;
}

/**
 * The front-matter keys that express `fields`: what a page's fields say each key should hold
 * (undefined: absent). A file that already has an `emoji` key keeps emoji and icon apart; else
 * GitBook's single `icon` holds either.
 */
export function keysFor(fields: PageFields, fm: FrontMatter): Record<string, unknown> {
  const separateEmoji = fm.keys.includes('emoji');
  return {
    description: fields.description || undefined,
    icon: (separateEmoji ? fields.icon : (fields.icon ?? fields.emoji)) || undefined,
    ...(separateEmoji ? { emoji: fields.emoji || undefined } : {}),
    hidden: fields.hidden ? true : undefined,
  };
}

/** `key: value` as YAML lines, without the final newline, in the file's line ending. */
function pairText(key: string, value: unknown, eol: Eol): string {
  return stringify({ [key]: value })
    .replace(/\n$/, '')
    .replace(/\n/g, eol);
}

const lineStartOf = (s: string, at: number) => s.lastIndexOf('\n', at - 1) + 1;
function lineEndOf(s: string, at: number) {
  const nl = s.indexOf('\n', at);
  return nl < 0 ? s.length : nl + 1;
}

/** Where a pair's text ends: after its value, before the line ending (a block scalar's range includes it). */
function pairEnd(yaml: string, pair: Pair): number {
  const key = pair.key as Node;
  let end = (pair.value as Node | null)?.range?.[1] ?? key.range![1];
  if (yaml[end - 1] === '\n') end--;
  if (yaml[end - 1] === '\r') end--;
  return end;
}

/**
 * Sets (or, for undefined, removes) top-level keys of a front matter's YAML, touching only their
 * lines; a new key goes last. Answers undefined when the YAML cannot be edited safely (invalid,
 * or not a block mapping): the caller then leaves the front matter as it is.
 */
export function editFrontMatter(yaml: string, changes: ReadonlyMap<string, unknown>, eol: Eol): string | undefined {
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0) return undefined;
  if (doc.contents !== null && (!isMap(doc.contents) || doc.contents.flow)) return undefined;
  const pairs = doc.contents === null ? [] : doc.contents.items;
  const edits: { start: number; end: number; insert: string }[] = [];
  let appended = '';
  for (const [key, value] of changes) {
    const pair = pairs.find((p) => isScalar(p.key) && String(p.key.value) === key);
    if (!pair) {
      if (value !== undefined) appended += pairText(key, value, eol) + eol;
      continue;
    }
    const start = (pair.key as Node).range![0];
    const end = pairEnd(yaml, pair);
    if (value === undefined) edits.push({ start: lineStartOf(yaml, start), end: lineEndOf(yaml, end), insert: '' });
    else edits.push({ start, end, insert: pairText(key, value, eol) });
  }
  let out = yaml;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.insert + out.slice(e.end);
  if (appended) out += (out === '' || out.endsWith('\n') ? '' : eol) + appended;
  return out;
}
