import { useState } from 'preact/hooks';

/**
 * Reordering the rows of one list (sections, a group's sections, a section's variants) by
 * dragging a row onto another (HTML drag and drop; the drop line shows where it lands) and by
 * keyboard: Alt+↑ / Alt+↓ on a row moves it one place. Lists nest (variants inside a section), so
 * each list has an id and a row only reacts to drags started in its own list.
 */

/** The row being dragged, across the lists of the page (only one drag happens at a time). */
let dragging: { list: string; id: string } | undefined;

/** Props spread on a sortable row's element (drag and key handlers, the drop mark). */
export type RowProps = Record<string, unknown>;

export interface SortableOptions {
  /** Unique per list on the page. */
  list: string;
  ids: readonly string[];
  enabled: boolean;
  /** Move `id` to index `to` (in the order without it… as the list reads after the move). */
  onMove: (id: string, to: number) => void;
}

export function useSortable({ list, ids, enabled, onMove }: SortableOptions) {
  const [over, setOver] = useState<{ id: string; after: boolean }>();
  const reset = () => {
    dragging = undefined;
    setOver(undefined);
  };
  const mine = () => dragging?.list === list;

  /** The props of the row of `id` (spread on its element). */
  const rowProps = (id: string): RowProps => {
    if (!enabled) return {};
    return {
      draggable: true,
      'data-drop': over?.id === id ? (over.after ? 'after' : 'before') : undefined,
      onDragStart: (event: DragEvent) => {
        event.stopPropagation();
        dragging = { list, id };
        event.dataTransfer?.setData('text/plain', id);
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      },
      onDragOver: (event: DragEvent) => {
        if (!mine()) return;
        event.preventDefault();
        event.stopPropagation();
        const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
        const after = event.clientY > box.top + box.height / 2;
        if (over?.id !== id || over.after !== after) setOver({ id, after });
      },
      onDrop: (event: DragEvent) => {
        if (!mine() || !dragging) return;
        event.preventDefault();
        event.stopPropagation();
        const moving = dragging.id;
        const from = ids.indexOf(moving);
        const target = ids.indexOf(id) + (over?.id === id && over.after ? 1 : 0);
        reset();
        // Indexes count the moved row out once it has left its place.
        const to = target > from ? target - 1 : target;
        if (from >= 0 && to !== from) onMove(moving, to);
      },
      onDragEnd: reset,
      onKeyDown: (event: KeyboardEvent) => {
        if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
        event.preventDefault();
        event.stopPropagation();
        const from = ids.indexOf(id);
        const to = from + (event.key === 'ArrowUp' ? -1 : 1);
        if (to >= 0 && to < ids.length) onMove(id, to);
      },
    };
  };

  /** Moves a row one place up or down (the Move up / Move down buttons). */
  const step = (id: string, by: -1 | 1) => {
    const to = ids.indexOf(id) + by;
    if (to >= 0 && to < ids.length) onMove(id, to);
  };

  return { rowProps, step };
}

/**
 * After a move re-renders the list, focus goes back to the control that had it in the moved row
 * (or to its other Move button when that one is now disabled, e.g. Move up on the first row).
 */
export function keepFocusIn(rowId: string): () => void {
  const active = document.activeElement as HTMLElement | null;
  const testid = active?.dataset.testid;
  return () =>
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-row-id="${CSS.escape(rowId)}"]`);
      if (!row) return;
      const same = testid ? row.querySelector<HTMLButtonElement>(`[data-testid="${CSS.escape(testid)}"]`) : null;
      const buttons = ['move-up', 'move-down'].map((id) =>
        row.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`),
      );
      const target = same && !same.disabled ? same : buttons.find((b) => b && !b.disabled);
      target?.focus();
    });
}
