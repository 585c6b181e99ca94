import { findFormerPath } from '../../shared/doc/page-meta';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import type { DocHub } from './hub';
import type { RevisionView } from './revision-view';
import type { StoredPage } from './revision-store';

/**
 * The old-path fallback of page-by-path reads (REST and published sites): a
 * page whose slug changed or that moved keeps answering at its former paths
 * (recorded in the content document, see shared/doc/page-meta.ts), and so do
 * its sub-pages under the old prefix. Only asked when no page lives at the
 * path now, so a current path always wins. Former paths live in the live
 * document, not in revisions, hence the read through the hub; the page
 * returned is the revision's (its current path tells where it lives now).
 */
export async function pageAtFormerPath(hub: DocHub, view: RevisionView, path: string): Promise<StoredPage | undefined> {
  if (path === '') return undefined;
  const { changeRequestId, spaceId } = view.revision;
  const docName = changeRequestId ? crContentDoc(changeRequestId) : spaceContentDoc(spaceId);
  const hit = await hub.withDoc(docName, (doc) => findFormerPath(doc, path));
  if (!hit) return undefined;
  const page = view.pagesById.get(hit.pageId);
  if (!page || typeof page.path !== 'string') return undefined;
  return hit.rest === '' ? page : view.pagesByPath.get(`${page.path}${hit.rest}`);
}
