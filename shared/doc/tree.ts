import { compareOrdered } from './order';
import type { PageKind } from './types';

/**
 * Resolves stored parent pointers into a tree. Concurrent edits can leave
 * pointers that no tree can honour — a parent deleted on another replica,
 * two moves that together form a cycle, a group moved under a page — so the
 * rules below pick one tree from the stored state alone. They never depend
 * on the order in which updates arrived, so every replica that holds the
 * same state materializes the same tree, and every page appears exactly once.
 */

/** What tree resolution needs to know about a page. */
export interface TreeNode {
  id: string;
  kind: PageKind;
  /** Stored parent id (null = root). */
  parent: string | null;
  index: string;
}

/** The resolved tree: effective parents and ordered children. */
export interface ResolvedTree {
  /** Top-level page ids, in order. */
  roots: string[];
  /** Parent id -> ordered child ids (only parents that have children). */
  children: Map<string, string[]>;
  /** Page id -> effective parent id (null = root). */
  parentOf: Map<string, string | null>;
}

/**
 * The effective parent before cycle breaking: the stored one, except that
 * groups live at the root (GitBook groups contain only documents and links),
 * and a page whose parent is missing or is a link page falls back to the root.
 */
function candidateParent(node: TreeNode, nodes: ReadonlyMap<string, TreeNode>): string | null {
  if (node.kind === 'group' || node.parent === null || node.parent === node.id) return null;
  const parent = nodes.get(node.parent);
  if (!parent || parent.kind === 'link') return null;
  return node.parent;
}

/**
 * Builds the tree. A cycle is broken by moving its page with the smallest id
 * to the root (the rest of the cycle stays below it); O(n).
 */
export function resolveTree(nodes: ReadonlyMap<string, TreeNode>): ResolvedTree {
  const parentOf = new Map<string, string | null>();
  for (const node of nodes.values()) parentOf.set(node.id, candidateParent(node, nodes));

  // 0/undefined = unvisited, 1 = on the current walk, 2 = settled.
  const state = new Map<string, 1 | 2>();
  for (const start of nodes.keys()) {
    const walk: string[] = [];
    let cur: string | null = start;
    while (cur !== null && state.get(cur) === undefined) {
      state.set(cur, 1);
      walk.push(cur);
      cur = parentOf.get(cur) ?? null;
    }
    if (cur !== null && state.get(cur) === 1) {
      const cycle = walk.slice(walk.indexOf(cur));
      let smallest = cycle[0]!;
      for (const id of cycle) if (id < smallest) smallest = id;
      parentOf.set(smallest, null);
    }
    for (const id of walk) state.set(id, 2);
  }

  const roots: TreeNode[] = [];
  const grouped = new Map<string, TreeNode[]>();
  for (const node of nodes.values()) {
    const parent = parentOf.get(node.id) ?? null;
    if (parent === null) roots.push(node);
    else {
      const list = grouped.get(parent);
      if (list) list.push(node);
      else grouped.set(parent, [node]);
    }
  }
  const children = new Map<string, string[]>();
  for (const [parent, list] of grouped)
    children.set(
      parent,
      list.sort(compareOrdered).map((n) => n.id),
    );
  return { roots: roots.sort(compareOrdered).map((n) => n.id), children, parentOf };
}
