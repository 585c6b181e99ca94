import * as Y from 'yjs';
import type { ContentDoc } from './content-doc';
import { pagesRoot } from './keys';

/**
 * "Delete" with an Undo button: the deletion runs under an origin of its
 * own, tracked by an UndoManager that tracks nothing else, so Undo brings
 * back exactly the deleted pages — titles, bodies, places — and never
 * reverts what the writer or collaborators did meanwhile. Undo is itself a
 * Yjs transaction, so it syncs (and works offline) like any edit.
 */
export interface UndoableDelete {
  /** Ids of the deleted pages (the page and its sub-pages); empty when it did not exist. */
  readonly deleted: readonly string[];
  /** Restores the deleted pages; true when something was restored (false once done or disposed). */
  undo(): boolean;
  /** Forgets the undo information (the Undo offer expired). */
  dispose(): void;
}

/** Deletes the page and its sub-pages, keeping what Undo needs. */
export function deletePageUndoable(content: ContentDoc, id: string): UndoableDelete {
  const origin = Symbol('delete-page');
  const manager = new Y.UndoManager(pagesRoot(content.ydoc), {
    trackedOrigins: new Set([origin]),
    captureTimeout: 0,
  });
  let deleted: string[] = [];
  content.ydoc.transact(() => {
    deleted = content.deletePage(id);
  }, origin);
  let active = deleted.length > 0;
  return {
    deleted,
    undo() {
      if (!active) return false;
      active = false;
      const restored = manager.undo() !== null;
      manager.destroy();
      return restored;
    },
    dispose() {
      active = false;
      manager.destroy();
    },
  };
}
