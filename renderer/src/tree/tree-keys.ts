/**
 * Arrow-key navigation of the page tree (the WAI-ARIA tree pattern), as a
 * pure function over the rows on screen, so it is unit-tested without a DOM:
 * ↑/↓ previous/next visible row, → expands a collapsed row or enters its
 * first child, ← collapses an expanded row or goes to its parent,
 * Home/End first/last row, Enter opens.
 */

/** A row as shown: its page, parent, and whether it has (and shows) children. */
export interface VisibleRow {
  id: string;
  parent: string | null;
  hasChildren: boolean;
  expanded: boolean;
}

/** What a key does. */
export type TreeKeyAction =
  | { kind: 'focus'; id: string }
  | { kind: 'expand'; id: string }
  | { kind: 'collapse'; id: string }
  | { kind: 'open'; id: string };

/** The action of `key` on the row `id`, or undefined when the key does nothing there. */
export function treeKeyAction(rows: readonly VisibleRow[], id: string, key: string): TreeKeyAction | undefined {
  const at = rows.findIndex((r) => r.id === id);
  const row = rows[at];
  if (!row) return undefined;
  const focus = (target: VisibleRow | undefined): TreeKeyAction | undefined =>
    target && target.id !== id ? { kind: 'focus', id: target.id } : undefined;
  switch (key) {
    case 'ArrowDown':
      return focus(rows[at + 1]);
    case 'ArrowUp':
      return focus(rows[at - 1]);
    case 'Home':
      return focus(rows[0]);
    case 'End':
      return focus(rows.at(-1));
    case 'ArrowRight':
      if (!row.hasChildren) return undefined;
      return row.expanded ? focus(rows[at + 1]) : { kind: 'expand', id };
    case 'ArrowLeft':
      if (row.hasChildren && row.expanded) return { kind: 'collapse', id };
      return row.parent === null ? undefined : focus(rows.find((r) => r.id === row.parent));
    case 'Enter':
      return { kind: 'open', id };
    default:
      return undefined;
  }
}
