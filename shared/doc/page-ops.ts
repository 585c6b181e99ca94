import * as Y from 'yjs';
import { PAGE, childMap } from './keys';
import { compareOrdered, type Ordered } from './order';
import { readKind } from './read';
import type { PageKind } from './types';

/**
 * Helpers of `ContentDoc` that look at the raw page graph (stored parent
 * pointers, which may be dangling or cyclic after concurrent edits). They
 * read, never write, and run inside the caller's transaction.
 */

/** Failure of a ContentDoc operation; `code` maps to an HTTP status (404 / 400 / 409). */
export class ContentDocError extends Error {
  constructor(
    readonly code: 'not-found' | 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'ContentDocError';
  }
}

/** A sibling as seen by placement and slug checks. */
export interface Sibling extends Ordered {
  slug: string;
}

function rawParent(map: Y.Map<unknown>): string | null {
  const v = map.get(PAGE.parent);
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The page's Y.Map, or a not-found error. */
export function requirePage(pages: Y.Map<unknown>, id: string): Y.Map<unknown> {
  const map = childMap(pages, id);
  if (!map) throw new ContentDocError('not-found', `page "${id}" does not exist`);
  return map;
}

/** Pages whose stored parent is `parent` (null = root), sorted, excluding `exclude`. */
export function siblingsOf(pages: Y.Map<unknown>, parent: string | null, exclude?: string): Sibling[] {
  const out: Sibling[] = [];
  pages.forEach((value, id) => {
    if (id === exclude || !(value instanceof Y.Map) || rawParent(value) !== parent) return;
    const index = value.get(PAGE.index);
    const slug = value.get(PAGE.slug);
    out.push({ id, index: typeof index === 'string' ? index : '', slug: typeof slug === 'string' ? slug : '' });
  });
  return out.sort(compareOrdered);
}

/** Stored parent -> child ids, for descendant walks. */
function childrenIndex(pages: Y.Map<unknown>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  pages.forEach((value, id) => {
    if (!(value instanceof Y.Map)) return;
    const parent = rawParent(value);
    if (parent === null) return;
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  });
  return children;
}

/** `id` and every page below it by stored parent pointers (cycle-safe). */
export function subtreeOf(pages: Y.Map<unknown>, id: string): string[] {
  const children = childrenIndex(pages);
  const seen = new Set<string>([id]);
  const stack = [id];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      stack.push(child);
    }
  }
  return [...seen];
}

/** Whether `candidate` is `id` or lies below it, following stored parents up from `candidate` (cycle-safe). */
export function isSelfOrDescendant(pages: Y.Map<unknown>, id: string, candidate: string | null): boolean {
  const seen = new Set<string>();
  for (let cur = candidate; cur !== null && !seen.has(cur);) {
    if (cur === id) return true;
    seen.add(cur);
    const map = childMap(pages, cur);
    cur = map ? rawParent(map) : null;
  }
  return false;
}

/** Whether any page's stored parent is `id`. */
export function hasChildren(pages: Y.Map<unknown>, id: string): boolean {
  let found = false;
  pages.forEach((value) => {
    if (!found && value instanceof Y.Map && rawParent(value) === id) found = true;
  });
  return found;
}

/**
 * Checks that a page of `kind` may live under `parent`, mirroring what the
 * materialized tree can express: groups only at the root (GitBook's group
 * children are documents and links), nothing under a link page.
 */
export function checkParent(pages: Y.Map<unknown>, kind: PageKind, parent: string | null): void {
  if (parent === null) return;
  if (kind === 'group') throw new ContentDocError('invalid', 'group pages can only be at the root of the space');
  const parentMap = childMap(pages, parent);
  if (!parentMap) throw new ContentDocError('not-found', `parent page "${parent}" does not exist`);
  const parentKind = readKind(parentMap);
  if (parentKind === 'link') throw new ContentDocError('invalid', 'link pages cannot have child pages');
  // Its pages are generated: a page put under it would be hidden by them.
  if (parentKind === 'computed')
    throw new ContentDocError('invalid', 'computed pages cannot have child pages (their pages are generated)');
}
