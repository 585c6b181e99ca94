import * as Y from 'yjs';
import { MAX_SLUG_LENGTH, slugify } from '../markdown/slug';
import type { ContentDoc, MoveTarget } from './content-doc';
import { PAGE, childMap, pagesRoot } from './keys';
import { siblingsOf } from './page-ops';
import { readOutline } from './outline';
import { readKind } from './read';
import { resolveTree } from './tree';
import type { PageKind } from './types';

/**
 * A page's header fields (what the page header edits) and its former paths.
 * Changing a slug or moving a page changes its path — and every URL and
 * link that used it. So the old path is recorded in the page's Y.Map
 * (`PAGE.formerPaths`, newest first) in the same transaction as the change,
 * and `findFormerPath` lets the server resolve a request for an old path
 * (and for the old paths of the page's sub-pages, by prefix) to the page.
 * Former paths stay out of the materialized API objects on purpose: they
 * are lookup data, not part of GitBook's RevisionPage.
 */

/** How many former paths a page keeps (the oldest drop off). */
export const MAX_FORMER_PATHS = 20;

/** What the page header shows and edits; read without the page body (cheap on every change). */
export interface PageMeta {
  id: string;
  kind: PageKind;
  title: string;
  emoji?: string;
  slug: string;
  description?: string;
  hidden: boolean;
  /** The page's current path (undefined for link pages, which have none). */
  path?: string;
}

function str(map: Y.Map<unknown>, key: string): string | undefined {
  const v = map.get(key);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The slug the materializer uses for a stored page: its slug, else its slugified title, else "page". */
function effectiveSlug(map: Y.Map<unknown>): string {
  return slugify(str(map, PAGE.slug) ?? '') || slugify(str(map, PAGE.title) ?? '') || 'page';
}

/**
 * The page's current path: the slugs of its effective ancestors and its own,
 * joined by "/" (as the materializer builds `path`). Undefined for a missing
 * page or a link page.
 */
export function currentPagePath(doc: Y.Doc, id: string): string | undefined {
  const pages = pagesRoot(doc);
  const map = childMap(pages, id);
  if (!map || readKind(map) === 'link') return undefined;
  const { parentOf } = resolveTree(readOutline(doc));
  const slugs: string[] = [];
  for (let cur: string | null = id; cur !== null; cur = parentOf.get(cur) ?? null) {
    const m = childMap(pages, cur);
    if (!m) break;
    slugs.unshift(effectiveSlug(m));
  }
  return slugs.join('/');
}

/**
 * The page's header fields, or undefined when it does not exist. Computing
 * the path resolves the whole tree (O(pages)); `{ path: false }` skips it
 * for a cheap check on every keystroke.
 */
export function readPageMeta(doc: Y.Doc, id: string, options: { path?: boolean } = {}): PageMeta | undefined {
  const map = childMap(pagesRoot(doc), id);
  if (!map) return undefined;
  const meta: PageMeta = {
    id,
    kind: readKind(map),
    title: str(map, PAGE.title) ?? 'Untitled',
    slug: effectiveSlug(map),
    hidden: map.get(PAGE.hidden) === true,
  };
  const emoji = str(map, PAGE.emoji);
  const description = str(map, PAGE.description);
  const path = options.path === false ? undefined : currentPagePath(doc, id);
  if (emoji) meta.emoji = emoji;
  if (description) meta.description = description;
  if (path !== undefined) meta.path = path;
  return meta;
}

/** The paths the page had before, newest first (malformed entries written by a peer are skipped). */
export function formerPathsOf(doc: Y.Doc, id: string): string[] {
  const map = childMap(pagesRoot(doc), id);
  const list = map?.get(PAGE.formerPaths);
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p !== '') : [];
}

/** Records `before` as a former path of the page (unless it is its path again, `after`). */
function rememberPath(doc: Y.Doc, id: string, before: string | undefined, after: string | undefined): void {
  const map = childMap(pagesRoot(doc), id);
  if (!map || before === undefined || before === after) return;
  const kept = formerPathsOf(doc, id).filter((p) => p !== before && p !== after);
  map.set(PAGE.formerPaths, [before, ...kept].slice(0, MAX_FORMER_PATHS));
}

/** Result of checking a slug typed by a writer. */
export type SlugCheck = { ok: true; slug: string } | { ok: false; message: string };

/**
 * Checks a slug the writer typed for page `id`: it is normalized the way it
 * will be stored (lowercase, dashes), must keep a letter or digit, and must
 * not be used by a sibling page.
 */
export function checkSlug(content: ContentDoc, id: string, raw: string): SlugCheck {
  if (raw.trim().length > MAX_SLUG_LENGTH) return { ok: false, message: `At most ${MAX_SLUG_LENGTH} characters.` };
  const slug = slugify(raw);
  if (slug === '') return { ok: false, message: 'A slug needs at least one letter or digit.' };
  const pages = pagesRoot(content.ydoc);
  const map = childMap(pages, id);
  if (!map) return { ok: false, message: 'This page no longer exists.' };
  const parent = str(map, PAGE.parent) ?? null;
  if (siblingsOf(pages, parent, id).some((s) => s.slug === slug))
    return { ok: false, message: `Another page at this level already uses “${slug}”.` };
  return { ok: true, slug };
}

/**
 * Changes the page's slug and records its old path, in one transaction.
 * Returns the stored slug.
 * @throws ContentDocError invalid slug or one taken by a sibling.
 */
export function changeSlug(content: ContentDoc, id: string, slug: string, origin: unknown = null): string {
  const doc = content.ydoc;
  doc.transact(() => {
    const before = currentPagePath(doc, id);
    content.updatePage(id, { slug });
    rememberPath(doc, id, before, currentPagePath(doc, id));
  }, origin);
  return readPageMeta(doc, id)?.slug ?? slug;
}

/**
 * Moves the page and records its old path when the move changes it (a new
 * parent, or a slug renamed to stay unique there), in one transaction.
 * @throws ContentDocError impossible move.
 */
export function movePageKeepingPath(content: ContentDoc, id: string, target: MoveTarget, origin: unknown = null): void {
  const doc = content.ydoc;
  doc.transact(() => {
    const before = currentPagePath(doc, id);
    content.movePage(id, target);
    rememberPath(doc, id, before, currentPagePath(doc, id));
  }, origin);
}

/** Where a former path leads: the page that had it, and what followed it in the request (a sub-page's path). */
export interface FormerPathHit {
  pageId: string;
  /** '' for the page itself, else "/<rest of the old path>" (for the page's sub-pages). */
  rest: string;
}

/**
 * The page that used to be at `path` (or at its longest prefix, for a
 * sub-page of a moved or re-slugged page). Callers try current paths first:
 * a page that lives at a path now always wins over one that used to.
 */
export function findFormerPath(doc: Y.Doc, path: string): FormerPathHit | undefined {
  let best: { pageId: string; length: number } | undefined;
  pagesRoot(doc).forEach((value, pageId) => {
    if (!(value instanceof Y.Map)) return;
    for (const former of formerPathsOf(doc, pageId)) {
      const matches = path === former || path.startsWith(`${former}/`);
      if (matches && (!best || former.length > best.length)) best = { pageId, length: former.length };
    }
  });
  return best && { pageId: best.pageId, rest: path.slice(best.length) };
}
