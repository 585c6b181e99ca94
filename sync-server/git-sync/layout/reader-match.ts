import type { LayoutNode } from './layout-tree';
import type { Baseline, BaselinePage } from './types';

/**
 * Which baseline page each entry of a repository's layout is. A document is its file: same path,
 * same page (a file moved in Git is a new page, and its old one is gone — Git itself records no
 * moves). Groups and link pages have no file, so they are recognised by what they show: a group by
 * its title, else (renamed in Git) by holding the most of the same pages; a link by its URL, else
 * by its title.
 */
export function matchBaseline(
  roots: readonly LayoutNode[],
  previous: Baseline | undefined,
): Map<LayoutNode, BaselinePage> {
  const matched = new Map<LayoutNode, BaselinePage>();
  if (!previous) return matched;
  const byKey = new Map(previous.pages.map((p) => [p.key, p]));
  const all: LayoutNode[] = [];
  const walk = (nodes: readonly LayoutNode[]) => {
    for (const n of nodes) {
      all.push(n);
      walk(n.children);
    }
  };
  walk(roots);
  for (const n of all) {
    const prev = n.path === undefined ? undefined : byKey.get(n.path);
    if (prev?.kind === 'document') matched.set(n, prev);
  }
  const used = new Set<BaselinePage>();
  /** Matches each unmatched entry of `kind` to the unused baseline page scoring highest (above 0). */
  const pick = (kind: 'group' | 'link', score: (n: LayoutNode, p: BaselinePage) => number) => {
    for (const n of all) {
      if (n.kind !== kind || matched.has(n)) continue;
      let best: BaselinePage | undefined;
      let bestScore = 0;
      for (const p of previous.pages) {
        if (p.kind !== kind || used.has(p)) continue;
        const s = score(n, p);
        if (s > bestScore) [best, bestScore] = [p, s];
      }
      if (best) {
        matched.set(n, best);
        used.add(best);
      }
    }
  };
  const titleOf = (p: BaselinePage) => p.listedTitle ?? p.title;
  pick('group', (n, p) => Number(n.listedTitle === titleOf(p)));
  pick('group', (n, p) => {
    const before = new Set(previous.pages.filter((c) => c.parent === p.key).map((c) => c.key));
    return n.children.filter((c) => c.path !== undefined && before.has(c.path)).length;
  });
  pick('link', (n, p) => Number(n.url === p.href));
  pick('link', (n, p) => Number(n.listedTitle === titleOf(p)));
  return matched;
}
