import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import { changedPagesByHash, listSpaceRevisions } from '../../store/revision-history';
import type { RevisionRecord } from '../../docs/revision-store';
import { requireSpace } from '../spaces/service';
import { semanticChanges } from '../change-requests/changes';
import { presentFull } from '../change-requests/service';
import { mergedChangeRequest } from '../content/merged-from';
import { viewerOf } from '../system/present-user';
import { pageChanges, presentHistoryItem } from './present';

/** A space's revisions, newest first, each with its author and changed pages; `pageId` keeps those that changed it. */
export async function listRevisions(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  page: PageRequest,
  pageId: string | undefined,
) {
  const { actor } = await requireSpace(ctx, p, spaceId);
  const { rows, total } = await listSpaceRevisions(ctx.db, spaceId, page, pageId);
  const differing = new Set<string>();
  for (const r of rows) {
    const before = new Set(r.parent_hashes);
    const after = new Set(r.page_hashes);
    for (const h of r.page_hashes) if (!before.has(h)) differing.add(h);
    for (const h of r.parent_hashes) if (!after.has(h)) differing.add(h);
  }
  const bodies = await changedPagesByHash(ctx.db, [...differing]);
  const viewer = viewerOf(actor);
  const items = rows.map((r) => presentHistoryItem(ctx, viewer, spaceId, r, pageChanges(r, bodies)));
  return listPage(items, total, page);
}

/** The first revision of a space is compared with nothing: every page in it was created. */
const EMPTY: Omit<RevisionRecord, 'id' | 'spaceId'> = {
  changeRequestId: null,
  parents: [],
  type: 'edits',
  createdAt: new Date(0),
  pages: [],
  files: [],
  reusableContents: [],
  variables: {},
};

/**
 * GitBook's getRevisionSemanticChanges: what a revision of the space changed
 * compared with its first parent, and for a merge the change request it came
 * from. 404 for a revision of another space or of a change request.
 */
export async function revisionSemanticChanges(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  revisionId: string,
  limit: number,
) {
  const { actor } = await requireSpace(ctx, p, spaceId);
  const revision = await ctx.revisions.get(revisionId);
  if (!revision || revision.spaceId !== spaceId || revision.changeRequestId !== null) throw notFound('Revision');
  const parentId = revision.parents[0];
  const parent = (parentId ? await ctx.revisions.get(parentId) : undefined) ?? { ...EMPTY, id: '', spaceId };
  const all = semanticChanges(parent, revision);
  const mergedFrom = revision.type === 'merge' ? await mergedChangeRequest(ctx, spaceId, revisionId) : undefined;
  return {
    ...(mergedFrom ? { mergedFrom: await presentFull(ctx, actor, mergedFrom) } : {}),
    changes: all.slice(0, limit),
    ...(all.length > limit ? { more: all.length - limit } : {}),
  };
}
