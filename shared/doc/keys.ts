import * as Y from 'yjs';

/**
 * The Yjs key names of a space's `content` document — the ONLY place that
 * spells them (DESIGN.md "Documents (Yjs)"). Every other module reads and
 * writes through these constants and the root accessors below, so renaming a
 * key or adding one is a change in one file. Changing an existing value
 * breaks every stored document: treat the strings as a persisted format.
 */

/** Root-level shared types of the content document. */
export const ROOT = {
  pages: 'pages',
  files: 'files',
  reusableContents: 'reusableContents',
  variables: 'variables',
} as const;

/** Fields of one page's Y.Map (value of `pages[pageId]`). */
export const PAGE = {
  title: 'title',
  emoji: 'emoji',
  icon: 'icon',
  slug: 'slug',
  description: 'description',
  /** 'document' | 'group' | 'link' | 'computed' */
  kind: 'kind',
  /** parent page id, or null at the root */
  parent: 'parent',
  /** fractional-indexing key ordering the page among its siblings */
  index: 'index',
  hidden: 'hidden',
  noIndex: 'noIndex',
  /** plain object: a partial RevisionPageLayoutOptions */
  layout: 'layout',
  /** ISO 8601 strings */
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  /** Y.Text holding the page's markdown */
  body: 'body',
  /** target URL of a 'link' page */
  href: 'href',
  /** adaptive-content condition (an expression over `visitor.claims`); absent: shown to every reader */
  condition: 'condition',
  /** plain string[]: paths the page had before a slug change or move, newest first (old links keep resolving) */
  formerPaths: 'formerPaths',
  /** plain object: the source of a 'computed' page (computed.ts reads it) */
  computed: 'computed',
} as const;

/** Fields of one file's Y.Map (value of `files[fileId]`); the bytes live in the blob store. */
export const FILE = {
  name: 'name',
  contentType: 'contentType',
  size: 'size',
  width: 'width',
  height: 'height',
  sha256: 'sha256',
} as const;

/** Fields of one reusable content's Y.Map (value of `reusableContents[id]`). */
export const REUSABLE = {
  title: 'title',
  /** Y.Text holding the markdown */
  body: 'body',
} as const;

/** Page kinds as stored in `PAGE.kind`. */
export const PAGE_KINDS = ['document', 'group', 'link', 'computed'] as const;

/** A page's Y.Map. Values are loosely typed on purpose: a peer may have written anything. */
export type YPage = Y.Map<unknown>;
/** A file's Y.Map. */
export type YFile = Y.Map<unknown>;
/** A reusable content's Y.Map. */
export type YReusable = Y.Map<unknown>;

/** `pages`: pageId -> page Y.Map. */
export function pagesRoot(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(ROOT.pages);
}

/** `files`: fileId -> file Y.Map. */
export function filesRoot(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(ROOT.files);
}

/** `reusableContents`: id -> { title, body }. */
export function reusableRoot(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(ROOT.reusableContents);
}

/** `variables`: name -> string value. */
export function variablesRoot(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(ROOT.variables);
}

/**
 * The entry `root[key]` when it is a Y.Map, else undefined. A sync peer can
 * write any value under any key; readers must not assume the shape.
 */
export function childMap(root: Y.Map<unknown>, key: string): Y.Map<unknown> | undefined {
  const v = root.get(key);
  return v instanceof Y.Map ? v : undefined;
}

/** `map[key]` when it is a Y.Text (a page or reusable content body), else undefined. */
export function childText(map: Y.Map<unknown>, key: string): Y.Text | undefined {
  const v = map.get(key);
  return v instanceof Y.Text ? v : undefined;
}

/**
 * The key under `root` of the entry that contains `type` (the type itself or
 * a nested type), or undefined when `type` is `root` or not below it. Used by
 * observers to map a deep event to the page / file it touched; it walks the
 * parents itself because `YEvent.path` is cached relative to whichever deep
 * observer asked first, which may not be ours.
 */
export function entryKeyOf(root: object, type: Y.AbstractType<unknown>): string | undefined {
  let t: Y.AbstractType<unknown> = type;
  while (t._item !== null) {
    const parent = t._item.parent;
    if (parent === root) return t._item.parentSub ?? undefined;
    if (!(parent instanceof Y.AbstractType)) return undefined;
    t = parent;
  }
  return undefined;
}
