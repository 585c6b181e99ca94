import type { AppContext } from '../../context';
import type { ChangedPageRow, RevisionHistoryRow } from '../../store/revision-history';
import { presentUser, type UserViewer } from '../system/present-user';

/** What happened to a page in a revision (the `type`s of GitBook's semantic changes). */
export type PageChangeKind = 'page_created' | 'page_edited' | 'page_deleted';

export interface HistoryPageChange {
  id: string;
  title: string;
  path?: string;
  change: PageChangeKind;
}

/**
 * The pages a revision changed, from the page versions it holds that its
 * parent does not (`added`) and the reverse (`removed`): a page id on both
 * sides was edited (or moved/renamed), only in `added` created, only in
 * `removed` deleted. Ordered by title so the list reads the same every time.
 */
export function pageChanges(row: RevisionHistoryRow, bodies: Map<string, ChangedPageRow>): HistoryPageChange[] {
  const before = new Set(row.parent_hashes);
  const after = new Set(row.page_hashes);
  const added = row.page_hashes.filter((h) => !before.has(h));
  const removed = row.parent_hashes.filter((h) => !after.has(h));
  const removedById = new Map<string, ChangedPageRow>();
  for (const h of removed) {
    const b = bodies.get(h);
    if (b) removedById.set(b.id, b);
  }
  const out: HistoryPageChange[] = [];
  const seen = new Set<string>();
  for (const h of added) {
    const b = bodies.get(h);
    if (!b || seen.has(b.id)) continue;
    seen.add(b.id);
    out.push(entry(b, removedById.has(b.id) ? 'page_edited' : 'page_created'));
  }
  for (const b of removedById.values()) if (!seen.has(b.id)) out.push(entry(b, 'page_deleted'));
  return out.sort((a, b) => a.title.localeCompare(b.title));
}

function entry(b: ChangedPageRow, change: PageChangeKind): HistoryPageChange {
  return { id: b.id, title: b.title || 'Untitled', ...(b.path ? { path: b.path } : {}), change };
}

/** Row -> one item of `GET /spaces/{id}/revisions` (a Folio extension; authors shown as everywhere else). */
export function presentHistoryItem(
  ctx: AppContext,
  viewer: UserViewer,
  spaceId: string,
  row: RevisionHistoryRow,
  pages: HistoryPageChange[],
) {
  return {
    object: 'revision-summary' as const,
    id: row.id,
    type: row.type,
    parents: row.parents,
    createdAt: row.created_at.toISOString(),
    ...(row.created_by && row.display_name
      ? {
          author: presentUser(ctx, viewer, {
            id: row.created_by,
            display_name: row.display_name,
            email: row.email,
            photo_url: row.photo_url,
          }),
        }
      : {}),
    pages,
    urls: { location: ctx.urls.api(`/spaces/${spaceId}/revisions/${row.id}`) },
  };
}
