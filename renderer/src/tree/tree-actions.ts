import { ContentDocError, type ContentDoc, type MoveTarget } from '../../../shared/doc/content-doc';
import { confirmDialog, promptDialog } from '../ui/dialog';
import { toast } from '../ui/toast';

/**
 * The page operations the tree offers, on the open content document. They
 * edit the local Y.Doc (so they work offline and sync later); invalid moves
 * that ContentDoc refuses (a page under itself, a group nested) become a
 * notice, never an exception in an event handler.
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

/** Asks for confirmation and deletes the page and its sub-pages; resolves true when deleted. */
export async function deletePageInteractive(content: ContentDoc, id: string): Promise<boolean> {
  const page = content.getPage(id);
  if (!page) return false;
  if (!(await confirmDialog(`Delete “${page.title}” and all its sub-pages?`))) return false;
  return attempt(() => content.deletePage(id)) !== undefined;
}

/** Moves a page; refused moves show why. */
export function movePage(content: ContentDoc, id: string, target: MoveTarget): void {
  if (target.parent === id || target.before === id || target.after === id) return;
  attempt(() => content.movePage(id, target));
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ContentDocError)) throw err;
    toast(err.message, 'error');
    return undefined;
  }
}
