import type { MoveTarget } from '../../../shared/doc/content-doc';

/**
 * Keyboard moves in the page tree, as ContentDoc move targets: up/down
 * swaps with the neighbouring sibling, indent nests the page at the end of
 * its previous sibling's children, outdent puts it right after its parent.
 * Pure functions over the tree's shape, so they are unit-tested without a DOM.
 */

/** What a move needs to know about the tree. */
export interface TreeShape {
  childrenOf(parent: string | null): readonly string[];
  parentOf(id: string): string | null;
}

/** The keyboard moves. */
export type TreeMove = 'up' | 'down' | 'indent' | 'outdent';

/** Where `id` goes for `move`, or undefined when the move is impossible (first page moved up, ...). */
export function moveTarget(tree: TreeShape, id: string, move: TreeMove): MoveTarget | undefined {
  const parent = tree.parentOf(id);
  const siblings = tree.childrenOf(parent);
  const at = siblings.indexOf(id);
  if (at < 0) return undefined;
  switch (move) {
    case 'up':
      return at === 0 ? undefined : { parent, before: siblings[at - 1]! };
    case 'down':
      return at === siblings.length - 1 ? undefined : { parent, after: siblings[at + 1]! };
    case 'indent': {
      if (at === 0) return undefined;
      const newParent = siblings[at - 1]!;
      const last = tree.childrenOf(newParent).at(-1);
      return last === undefined ? { parent: newParent } : { parent: newParent, after: last };
    }
    case 'outdent':
      return parent === null ? undefined : { parent: tree.parentOf(parent), after: parent };
  }
}

/** Where a page dropped on `target` goes: before it, after it, or inside it (as its last child). */
export function dropTarget(tree: TreeShape, target: string, zone: 'before' | 'after' | 'inside'): MoveTarget {
  if (zone === 'inside') {
    const last = tree.childrenOf(target).at(-1);
    return last === undefined ? { parent: target } : { parent: target, after: last };
  }
  const parent = tree.parentOf(target);
  return zone === 'before' ? { parent, before: target } : { parent, after: target };
}
