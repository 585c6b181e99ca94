import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { cachedSpaceView, requireSpace } from '../spaces/service';
import { requireChangeRequest } from '../change-requests/service';
import { viewOf, type RevisionView } from '../../docs/revision-view';
import type { RevisionRecord } from '../../docs/revision-store';
import type { RefContext } from './links';
import { readAs } from './computed';
import { hasComputedPages } from '../../computed-content/expand';

/** A revision's lookups, with what API references to its content carry (organization, space, revision). */
function withRefs(ctx: AppContext, organizationId: string, revision: RevisionRecord) {
  const refs: RefContext = {
    organization: organizationId,
    space: revision.spaceId,
    revision: revision.id,
    appPrefix: ctx.urls.app('/'),
  };
  return { view: viewOf(revision), refs };
}

/**
 * The revision a space content read targets: the space's current one, or a
 * given revision id of that space (404 when it belongs to another space).
 * Needs read access to the space (404 otherwise).
 */
export async function spaceRevision(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  revisionId?: string,
  computed?: boolean,
): Promise<RevisionView> {
  // Every content read comes through here: no references built (a URL per request) when none are needed.
  const { organizationId, revision } = await readableRevision(ctx, p, spaceId, revisionId);
  return viewOf(await readAs(ctx, organizationId, revision, computed));
}

/** spaceRevision of the current revision when the access decision and the revision are both in memory, synchronously. */
export function cachedSpaceRevision(ctx: AppContext, p: Principal, spaceId: string): RevisionView | undefined {
  const view = cachedSpaceView(ctx, p, spaceId);
  const revision = view && ctx.revisions.loaded(view.row.revision);
  // A revision with computed pages is read expanded, which needs the organization's specs: not this path.
  return revision && revision.spaceId === spaceId && !hasComputedPages(revision) ? viewOf(revision) : undefined;
}

/** Like spaceRevision, plus what API references to this content carry (organization, space, revision). */
export async function spaceRevisionWithRefs(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  revisionId?: string,
  computed?: boolean,
) {
  const { organizationId, revision } = await readableRevision(ctx, p, spaceId, revisionId);
  return withRefs(ctx, organizationId, await readAs(ctx, organizationId, revision, computed));
}

async function readableRevision(ctx: AppContext, p: Principal, spaceId: string, revisionId: string | undefined) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const id = revisionId ?? row.revision;
  const revision = await ctx.revisions.get(id);
  if (!revision || revision.spaceId !== spaceId || (revisionId !== undefined && revision.changeRequestId !== null))
    throw notFound('Revision');
  return { organizationId: row.organization_id, revision };
}

/**
 * The current revision of a change request (addressed by id or number in the
 * space), with its references. Needs read access to the space (404 otherwise).
 */
export async function changeRequestRevisionWithRefs(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  changeRequestId: string,
  computed?: boolean,
) {
  const { row, cr } = await requireChangeRequest(ctx, p, spaceId, changeRequestId);
  const revision = await ctx.revisions.get(cr.revision);
  if (!revision || revision.spaceId !== spaceId) throw notFound('Revision');
  return withRefs(ctx, row.organization_id, await readAs(ctx, row.organization_id, revision, computed));
}
