import type * as Y from 'yjs';
import type { AppContext } from '../../context';
import { PAGE, childMap, pagesRoot } from '../../../shared/doc/keys';
import { MAX_FORMER_PATHS, currentPagePath, formerPathsOf } from '../../../shared/doc/page-meta';
import type { RepoRedirect } from '../../git-sync/layout';

/**
 * `.gitbook.yaml`'s redirects on import: each one whose file is a page gives that page the
 * redirect's old path as a former path (shared/doc/page-meta.ts), so the published site and
 * `GET …/content/path/<old path>` answer it, as they do for pages Folio moved. Only redirects new
 * since the last sync (or leading to a page this import created) are applied: one already applied
 * is not added back after the page's list of former paths dropped it.
 */

export interface FormerPath {
  pageId: string;
  path: string;
}

/** The former paths to give: `ids` binds the keys of pages this import created to their ids. */
export function formerPathsToAdd(redirects: readonly RepoRedirect[], ids: ReadonlyMap<string, string>): FormerPath[] {
  const out: FormerPath[] = [];
  for (const r of redirects) {
    if (!r.page) continue;
    const created = r.page.id === undefined;
    const pageId = r.page.id ?? ids.get(r.page.key);
    if (pageId !== undefined && (created || !r.known)) out.push({ pageId, path: r.from });
  }
  return out;
}

/** Records `path` as the newest former path of the page, unless it has it already or lives there. */
export function addFormerPath(doc: Y.Doc, { pageId, path }: FormerPath): boolean {
  const map = childMap(pagesRoot(doc), pageId);
  if (!map) return false;
  const former = formerPathsOf(doc, pageId);
  if (former.includes(path) || currentPagePath(doc, pageId) === path) return false;
  map.set(PAGE.formerPaths, [path, ...former].slice(0, MAX_FORMER_PATHS));
  return true;
}

/** Adds the former paths in one change of the live document `docName` (none when there are none). */
export async function applyFormerPaths(
  ctx: AppContext,
  docName: string,
  paths: readonly FormerPath[],
  userId: string,
): Promise<void> {
  if (paths.length === 0) return;
  await ctx.hub.change(
    docName,
    (doc) => {
      for (const p of paths) addFormerPath(doc, p);
    },
    { userId, reason: 'git-import' },
  );
}
