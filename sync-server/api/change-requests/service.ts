import * as Y from 'yjs';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { crContentDoc, crDiscussionDoc, spaceContentDoc } from '../../../shared/sync-contract';
import { openCommentCount as countOpenComments } from '../comments/counts';
import { decide, type Actor } from '../../policy';
import type { ChangeRequestAction } from '../../policy/change-request';
import { changeRequestResource } from '../../access/resources';
import { queryOne } from '../../store/db';
import { CR_SELECT, findChangeRequest, type ChangeRequestRow } from '../../store/change-requests';
import { enforce } from '../authorize';
import { requireSpace } from '../spaces/service';
import { forkUpdate, pullInto } from '../../docs/fork-merge';
import { presentChangeRequest } from './present';
import { viewerOf } from '../system/present-user';
import { afterMerge } from '../git/after-merge';

/** Open (unresolved top-level) comments of a change request, from its discussion document. */
export function openCommentCount(ctx: AppContext, changeRequestId: string): Promise<number> {
  return countOpenComments(ctx, crDiscussionDoc(changeRequestId));
}

/**
 * The change request (by id or number in the space) and the caller's role on
 * its space, when policy lets them do `action` to it (default: see it): 404
 * when they cannot see the space or it has no such change request.
 */
export async function requireChangeRequest(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  idOrNumber: string,
  action: ChangeRequestAction = 'view',
) {
  const space = await requireSpace(ctx, p, spaceId);
  const cr = await findChangeRequest(ctx.db, spaceId, idOrNumber);
  if (!cr) throw notFound('Change request');
  enforce(decide(space.actor, action, changeRequestResource(cr, space.row)));
  return { ...space, cr };
}

/**
 * The API object of a change request as `actor` may see it (outdated from the cache, comments from the comments
 * module).
 */
export async function presentFull(ctx: AppContext, actor: Actor, row: ChangeRequestRow) {
  const live = row.status === 'draft' || row.status === 'open';
  const [outdated, comments] = await Promise.all([
    live ? ctx.outdatedForks.get(row.space_id, row.id) : false,
    openCommentCount(ctx, row.id),
  ]);
  return presentChangeRequest(ctx, viewerOf(actor), row, { outdated, comments });
}

export interface ListFilter {
  status?: string;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  orderBy?: 'updatedAt' | 'createdAt';
}

/** A space's change requests, newest activity first (GitBook's default order), filtered. */
export async function listChangeRequests(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  filter: ListFilter,
  page: PageRequest,
) {
  const { actor } = await requireSpace(ctx, p, spaceId);
  const params: unknown[] = [spaceId, filter.status ?? 'open'];
  const where = ['cr.space_id = $1', 'cr.status = $2'];
  if (filter.creator) {
    params.push(filter.creator);
    where.push(`cr.created_by = $${params.length}`);
  }
  if (filter.contributor) {
    // Contributors: the author, whoever merged it, and authors of its revisions (socket edits are attributed when known).
    params.push(filter.contributor);
    const n = params.length;
    where.push(
      `(cr.created_by = $${n} OR cr.merged_by = $${n} OR EXISTS (SELECT 1 FROM revisions r WHERE r.change_request_id = cr.id AND r.created_by = $${n}))`,
    );
  }
  if (filter.requestedReviewer) {
    params.push(filter.requestedReviewer);
    where.push(
      `EXISTS (SELECT 1 FROM change_request_reviewers rr WHERE rr.change_request_id = cr.id AND rr.user_id = $${params.length})`,
    );
  }
  const order = filter.orderBy === 'createdAt' ? 'cr.created_at' : 'cr.updated_at';
  const countRow = await queryOne<{ n: string }>(
    ctx.db,
    `SELECT count(*) AS n FROM change_requests cr WHERE ${where.join(' AND ')}`,
    params,
  );
  const rows = await ctx.db.query<ChangeRequestRow>(
    `${CR_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} DESC, cr.number DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  const items = await Promise.all(rows.map((r) => presentFull(ctx, actor, r)));
  return listPage(items, Number(countRow?.n ?? 0), page);
}

async function currentSpaceRevision(ctx: AppContext, spaceId: string): Promise<string> {
  const row = await queryOne<{ revision: string }>(ctx.db, 'SELECT revision FROM spaces WHERE id = $1', [spaceId]);
  if (!row) throw notFound('Space');
  return row.revision;
}

/** Inserts the row with the next number of the space (retried when a concurrent create took that number). */
async function insertRow(
  ctx: AppContext,
  id: string,
  spaceId: string,
  p: Principal,
  body: { subject?: string; agentTaskId?: string },
  revision: string,
) {
  const now = ctx.clock.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.db.query(
        `INSERT INTO change_requests (id, space_id, number, subject, status, created_by, created_at, updated_at, revision, revision_initial, agent_task_id)
         SELECT $1, $2, COALESCE(MAX(number), 0) + 1, $3, 'draft', $4, $5, $5, $6, $6, $7 FROM change_requests WHERE space_id = $2`,
        [id, spaceId, body.subject ?? '', p.userId, now, revision, body.agentTaskId ?? null],
      );
      return;
    } catch (err) {
      if (attempt >= 5 || !/unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
}

/**
 * Creates a change request: the space's current content becomes a revision
 * (revisionInitial), then its document is forked into the change request's
 * own document and that fork gets its first revision. Needs `edit`.
 */
export async function createChangeRequest(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  body: { subject?: string; agentTaskId?: string },
) {
  const { actor } = await requireSpace(ctx, p, spaceId, 'create-change-request');
  await ctx.snapshots.revise(spaceId);
  const revisionInitial = await currentSpaceRevision(ctx, spaceId);
  const id = newId();
  await insertRow(ctx, id, spaceId, p, body, revisionInitial);
  await ctx.hub.withDoc(spaceContentDoc(spaceId), (space) =>
    ctx.hub.change(crContentDoc(id), (fork) => Y.applyUpdate(fork, forkUpdate(space)), {
      userId: p.userId,
      reason: 'fork',
    }),
  );
  await ctx.snapshots.reviseChangeRequest(id, { userId: p.userId });
  return presentFull(ctx, actor, (await findChangeRequest(ctx.db, spaceId, id))!);
}

/** PATCH subject/status. Needs `edit`; merged change requests cannot change. */
export async function updateChangeRequest(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  idOrNumber: string,
  body: { subject?: string; status?: string },
) {
  const { cr, actor } = await requireChangeRequest(ctx, p, spaceId, idOrNumber, 'update');
  const sets = ['updated_at = $2'];
  const params: unknown[] = [cr.id, ctx.clock.now()];
  if (body.subject !== undefined) {
    params.push(body.subject);
    sets.push(`subject = $${params.length}`);
  }
  if (body.status !== undefined) {
    params.push(body.status);
    sets.push(`status = $${params.length}`);
  }
  await ctx.db.query(`UPDATE change_requests SET ${sets.join(', ')} WHERE id = $1`, params);
  return presentFull(ctx, actor, (await findChangeRequest(ctx.db, spaceId, cr.id))!);
}

/**
 * Merges the fork into the space (a CRDT merge: the space receives what the
 * fork has and it lacks; concurrent space edits stay). The status becomes
 * `merged` first, so the fork's sockets stop writing; edits already accepted
 * are committed (flush) before the fork's state is read, so none is lost.
 * Needs `review` and an unlocked space.
 */
export async function mergeChangeRequest(ctx: AppContext, p: Principal, spaceId: string, idOrNumber: string) {
  const { cr } = await requireChangeRequest(ctx, p, spaceId, idOrNumber, 'merge');
  const now = ctx.clock.now();
  // Claim the merge atomically: a second concurrent merge finds the status changed.
  const claimed = await ctx.db.query<{ id: string }>(
    "UPDATE change_requests SET status = 'merged', merged_at = $2, merged_by = $3, updated_at = $2 WHERE id = $1 AND status IN ('draft', 'open') RETURNING id",
    [cr.id, now, p.userId],
  );
  if (claimed.length === 0) throw badRequest('This change request is already merged');
  try {
    await ctx.hub.flush();
    // With several processes, fork edits committed elsewhere may still be on their way over Redis: read them back first.
    if (ctx.hub.shared) await ctx.hub.refresh(crContentDoc(cr.id));
    await ctx.hub.withDoc(crContentDoc(cr.id), (fork) =>
      ctx.hub.change(spaceContentDoc(spaceId), (space) => void pullInto(space, fork), {
        userId: p.userId,
        reason: 'merge',
      }),
    );
    await ctx.snapshots.reviseChangeRequest(cr.id, { userId: p.userId });
    await ctx.snapshots.revise(spaceId, { type: 'merge', userId: p.userId });
  } catch (err) {
    await ctx.db.query('UPDATE change_requests SET status = $2, merged_at = NULL, merged_by = NULL WHERE id = $1', [
      cr.id,
      cr.status,
    ]);
    throw err;
  }
  const revision = await currentSpaceRevision(ctx, spaceId);
  await ctx.db.query('UPDATE change_requests SET revision_merged = $2 WHERE id = $1', [cr.id, revision]);
  // A Git sync that exports on merge queues its export (a failure there never fails the merge).
  await afterMerge(ctx, spaceId, cr, p.userId);
  return { revision, result: 'merge' as const };
}

/**
 * Update from main: the fork receives what the space has and it lacks (its
 * own concurrent edits stay). revisionMergedAncestor = the space revision it
 * was brought up to. Needs `edit`.
 */
export async function updateFromMain(ctx: AppContext, p: Principal, spaceId: string, idOrNumber: string) {
  const { cr } = await requireChangeRequest(ctx, p, spaceId, idOrNumber, 'update-from-main');
  await ctx.snapshots.revise(spaceId);
  const ancestor = await currentSpaceRevision(ctx, spaceId);
  await ctx.hub.withDoc(spaceContentDoc(spaceId), (space) =>
    ctx.hub.change(crContentDoc(cr.id), (fork) => void pullInto(fork, space), { userId: p.userId, reason: 'update' }),
  );
  await ctx.snapshots.reviseChangeRequest(cr.id, { type: 'update', userId: p.userId });
  await ctx.db.query('UPDATE change_requests SET revision_merged_ancestor = $2, updated_at = $3 WHERE id = $1', [
    cr.id,
    ancestor,
    ctx.clock.now(),
  ]);
  const updated = (await findChangeRequest(ctx.db, spaceId, cr.id))!;
  return { revision: updated.revision, result: 'update' as const };
}
