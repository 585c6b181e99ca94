import * as Y from 'yjs';
import { PAGE, childMap, pagesRoot } from './keys';
import { readKind } from './read';
import type { TreeNode } from './tree';

/**
 * The page outline of a content document: what a page tree shows (title,
 * emoji, kind, stored parent and order key) without reading any page body.
 * Editors re-read it per changed page while the user types, so it must stay
 * O(changed pages), not O(space) — hence no body, no materialization.
 */

/** One page as a tree shows it. */
export interface OutlineEntry extends TreeNode {
  title: string;
  emoji?: string;
}

/** The outline entry of one page, or undefined when it does not exist (or is not a page map). */
export function readOutlineEntry(doc: Y.Doc, id: string): OutlineEntry | undefined {
  const map = childMap(pagesRoot(doc), id);
  if (!map) return undefined;
  const title = map.get(PAGE.title);
  const emoji = map.get(PAGE.emoji);
  const parent = map.get(PAGE.parent);
  const index = map.get(PAGE.index);
  const entry: OutlineEntry = {
    id,
    kind: readKind(map),
    title: typeof title === 'string' && title !== '' ? title : 'Untitled',
    parent: typeof parent === 'string' && parent !== '' ? parent : null,
    index: typeof index === 'string' ? index : '',
  };
  if (typeof emoji === 'string' && emoji !== '') entry.emoji = emoji;
  return entry;
}

/** Every page's outline entry, by id. */
export function readOutline(doc: Y.Doc): Map<string, OutlineEntry> {
  const out = new Map<string, OutlineEntry>();
  pagesRoot(doc).forEach((value, id) => {
    if (!(value instanceof Y.Map)) return;
    const entry = readOutlineEntry(doc, id);
    if (entry) out.set(id, entry);
  });
  return out;
}

/** Whether two entries would render the same (tree position and label). */
export function sameOutlineEntry(a: OutlineEntry | undefined, b: OutlineEntry | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.title === b.title && a.emoji === b.emoji && a.kind === b.kind && a.parent === b.parent && a.index === b.index
  );
}
