import { ContentDocError, type ContentDoc, type MoveTarget } from '../../../shared/doc/content-doc';
import { movePageKeepingPath } from '../../../shared/doc/page-meta';
import { deletePageUndoable } from '../../../shared/doc/undoable-delete';
import { confirmDialog, promptDialog } from '../ui/dialog';
import { toast } from '../ui/toast';
import { undoToast } from './undo-toast';

/**
 * The page operations the tree (and the page header's menu) offers, on the
 * open content document. They edit the local Y.Doc (so they work offline and
 * sync later); invalid moves that ContentDoc refuses (a page under itself, a
 * group nested) become a notice, never an exception in an event handler.
 */

/** Asks for a title and creates a page under `parent` (after `after`, else at the end); returns its id. */
export async function createPageInteractive(
  content: ContentDoc,
  parent: string | null = null,
  after?: string,
): Promise<string | undefined> {
  const title = await promptDialog(parent ? 'Title of the new sub-page' : 'Title of the new page', '', 'Create');
  if (!title) return undefined;
  return attempt(() => content.createPage({ title, parent, ...(after ? { after } : {}) }));
}

/** Asks for a new title and renames the page. */
export async function renamePageInteractive(content: ContentDoc, id: string): Promise<void> {
  const current = content.getPage(id)?.title ?? '';
  const title = await promptDialog('Rename page', current, 'Rename');
  if (title && title !== current) attempt(() => content.updatePage(id, { title }));
}

/** Options of deletePageInteractive. */
export interface DeleteOptions {
  /** Ask first (default true). */
  confirm?: boolean;
  /** Called after Undo brought the pages back. */
  restored?: () => void;
}

/**
 * Deletes the page and its sub-pages — after asking, unless told not to —
 * and offers Undo for a while; resolves true when deleted.
 */
export async function deletePageInteractive(
  content: ContentDoc,
  id: string,
  options: DeleteOptions = {},
): Promise<boolean> {
  const page = content.getPage(id);
  if (!page) return false;
  if (options.confirm !== false && !(await confirmDialog(`Delete “${page.title}” and all its sub-pages?`)))
    return false;
  const removal = attempt(() => deletePageUndoable(content, id));
  if (!removal || removal.deleted.length === 0) return false;
  const more = removal.deleted.length - 1;
  undoToast(
    `Deleted “${page.title}”${more > 0 ? ` and ${more} sub-page${more > 1 ? 's' : ''}` : ''}`,
    () => {
      if (removal.undo()) options.restored?.();
    },
    () => removal.dispose(),
  );
  return true;
}

/** Moves a page (its old path keeps resolving); refused moves show why. */
export function movePage(content: ContentDoc, id: string, target: MoveTarget): void {
  if (target.parent === id || target.before === id || target.after === id) return;
  attempt(() => movePageKeepingPath(content, id, target));
}

/** Runs a document operation; a ContentDocError becomes an error notice (undefined result). */
export function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ContentDocError)) throw err;
    toast(err.message, 'error');
    return undefined;
  }
}
