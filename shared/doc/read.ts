import type * as Y from 'yjs';
import { readComputedSource } from './computed';
import { FILE, PAGE, PAGE_KINDS, REUSABLE, childText } from './keys';
import type { FileData, PageData, PageKind, PageLayout, ReusableContentData } from './types';

/**
 * Defensive readers from Y.Maps to plain data. Any editor with the `edit`
 * role can write arbitrary values through the sync socket, so every field is
 * type-checked here and a wrong type reads as "unset": a malformed page must
 * degrade to defaults, never crash materialization for the whole space.
 */

const MAYBE_UNSTORABLE = /[\0\uD800-\uDFFF]/;
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with NUL characters and lone surrogates replaced by U+FFFD. Anyone
 * who may edit can type them over the socket, and PostgreSQL can store
 * neither (text and jsonb refuse them): unreplaced, one such character made
 * every later revision of the space fail. Valid surrogate pairs (emoji) stay.
 */
export function storableText(text: string): string {
  return MAYBE_UNSTORABLE.test(text) ? text.replace(UNSTORABLE, '\uFFFD') : text;
}

function str(map: Y.Map<unknown>, key: string): string | undefined {
  const v = map.get(key);
  return typeof v === 'string' ? storableText(v) : undefined;
}

function nonEmpty(map: Y.Map<unknown>, key: string): string | undefined {
  const v = str(map, key);
  return v === undefined || v === '' ? undefined : v;
}

function bool(map: Y.Map<unknown>, key: string): boolean {
  return map.get(key) === true;
}

function num(map: Y.Map<unknown>, key: string): number | undefined {
  const v = map.get(key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

const LAYOUT_ENUMS: Partial<Record<keyof PageLayout, readonly string[]>> = {
  width: ['default', 'wide'],
  coverSize: ['hero', 'full', 'background'],
  coverMask: ['none', 'radial'],
};
const LAYOUT_FLAGS = [
  'cover',
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;

/** The valid subset of a stored layout object (unknown keys and wrong types dropped). */
export function readLayout(value: unknown): Partial<PageLayout> {
  if (typeof value !== 'object' || value === null) return {};
  const raw = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, allowed] of Object.entries(LAYOUT_ENUMS)) {
    if (typeof raw[key] === 'string' && allowed.includes(raw[key])) out[key] = raw[key];
  }
  for (const key of LAYOUT_FLAGS) if (typeof raw[key] === 'boolean') out[key] = raw[key];
  return out as Partial<PageLayout>;
}

/** The stored kind; anything unknown reads as a document (the safest: it keeps its body visible). */
export function readKind(map: Y.Map<unknown>): PageKind {
  const v = map.get(PAGE.kind);
  return (PAGE_KINDS as readonly unknown[]).includes(v) ? (v as PageKind) : 'document';
}

/** The page's markdown body ('' when missing or not a Y.Text). */
export function readBody(map: Y.Map<unknown>): string {
  return storableText(childText(map, PAGE.body)?.toString() ?? '');
}

/** A page Y.Map as plain data (raw parent and index, not resolved against the tree). */
export function readPage(id: string, map: Y.Map<unknown>): PageData {
  const parent = str(map, PAGE.parent);
  const page: PageData = {
    id,
    kind: readKind(map),
    title: str(map, PAGE.title) ?? '',
    slug: str(map, PAGE.slug) ?? '',
    parent: parent === undefined || parent === '' ? null : parent,
    index: str(map, PAGE.index) ?? '',
    hidden: bool(map, PAGE.hidden),
    noIndex: bool(map, PAGE.noIndex),
    layout: readLayout(map.get(PAGE.layout)),
    markdown: readBody(map),
  };
  const optional = {
    emoji: PAGE.emoji,
    icon: PAGE.icon,
    description: PAGE.description,
    createdAt: PAGE.createdAt,
    updatedAt: PAGE.updatedAt,
    href: PAGE.href,
    condition: PAGE.condition,
  } as const;
  for (const [field, key] of Object.entries(optional)) {
    const v = nonEmpty(map, key);
    if (v !== undefined) page[field as keyof typeof optional] = v;
  }
  if (page.kind === 'computed') {
    // A computed page without a source Folio can expand keeps its body visible as a document.
    const source = readComputedSource(map.get(PAGE.computed));
    if (source) page.computed = source;
    else page.kind = 'document';
  }
  return page;
}

/** A file Y.Map as plain data; undefined when it lacks a name (not a usable file). */
export function readFile(id: string, map: Y.Map<unknown>): FileData | undefined {
  const name = nonEmpty(map, FILE.name);
  if (name === undefined) return undefined;
  const file: FileData = {
    id,
    name,
    contentType: nonEmpty(map, FILE.contentType) ?? 'application/octet-stream',
    size: Math.max(0, num(map, FILE.size) ?? 0),
  };
  const width = num(map, FILE.width);
  const height = num(map, FILE.height);
  if (width !== undefined && height !== undefined) {
    file.width = width;
    file.height = height;
  }
  const sha256 = nonEmpty(map, FILE.sha256);
  if (sha256 !== undefined) file.sha256 = sha256;
  return file;
}

/** A reusable content Y.Map as plain data. */
export function readReusable(id: string, map: Y.Map<unknown>): ReusableContentData {
  return {
    id,
    title: str(map, REUSABLE.title) ?? '',
    markdown: storableText(childText(map, REUSABLE.body)?.toString() ?? ''),
  };
}
