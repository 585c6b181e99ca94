import type { PageKind } from '../../../shared/doc/types';

/**
 * Where "Move to…" may put a page: the top level, or under any page that is
 * not the page itself, not one of its sub-pages (a page cannot live under
 * itself) and not a link (links have no sub-pages). A group lives only at the
 * top level (GitBook's groups are top-level sections). Pure, for unit tests.
 */

/** What the computation needs to know about the tree. */
export interface DestinationTree {
  childrenOf(parent: string | null): readonly string[];
  parentOf(id: string): string | null;
  entry(id: string): { title: string; kind: PageKind; emoji?: string } | undefined;
}

/** One choice of the dialog. */
export interface Destination {
  /** The new parent (null = top level). */
  parent: string | null;
  title: string;
  emoji?: string;
  /** Nesting depth for indentation (0 = top level entry). */
  depth: number;
  /** The page's current parent: offered but marked, moving there changes nothing. */
  current: boolean;
}

/** The destinations of `id`, top level first, then the pages in tree order. */
export function moveDestinations(tree: DestinationTree, id: string): Destination[] {
  const currentParent = tree.parentOf(id);
  const out: Destination[] = [{ parent: null, title: 'Top level', depth: 0, current: currentParent === null }];
  if (tree.entry(id)?.kind === 'group') return out;
  const walk = (parent: string | null, depth: number) => {
    for (const child of tree.childrenOf(parent)) {
      if (child === id) continue; // the page's subtree is skipped with it
      const entry = tree.entry(child);
      if (!entry || entry.kind === 'link') continue;
      out.push({
        parent: child,
        title: entry.title,
        ...(entry.emoji ? { emoji: entry.emoji } : {}),
        depth,
        current: currentParent === child,
      });
      walk(child, depth + 1);
    }
  };
  walk(null, 1);
  return out;
}
