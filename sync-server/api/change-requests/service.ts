import * as Y from 'yjs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { crContentDoc, crDiscussionDoc, spaceContentDoc } from '../../docs/doc-names';
import { openCommentCount as countOpenComments } from '../comments/counts';
import { requireContentRole } from '../../policy/guards';
import { queryOne, type Queryable } from '../../store/db';
import { requireActiveSpace, requireSpace } from '../spaces/service';
import { forkUpdate, pullInto } from './crdt-merge';
import { CR_SELECT, presentChangeRequest, type ChangeRequestRow } from './present';
import type { OutdatedCache } from './state';

/** What every change request operation needs: the app (snapshots), the outdated cache. */
export interface CrDeps {
  ctx: AppContext;
  app: FastifyInstance;
  outdated: OutdatedCache;
}

/** Open (unresolved top-level) comments of a change request, from its discussion document. */
export function openCommentCount(ctx: AppContext, changeRequestId: string): Promise<number> {
  return countOpenComments(ctx, crDiscussionDoc(changeRequestId));
}

/** A change request row by id or number in the space, or undefined. */
export async function findChangeRequest(
  db: Queryable,
  spaceId: string,
  idOrNumber: string,
): Promise<ChangeRequestRow | undefined> {
  const number = /^\d{1,9}$/.test(idOrNumber) ? Number(idOrNumber) : null;
  const rows = await db.query<ChangeRequestRow>(
    `${CR_SELECT} WHERE cr.space_id = $1 AND (cr.id = $2 OR cr.number = $3) ORDER BY (cr.id = $2) DESC LIMIT 1`,
    [spaceId, idOrNumber, number],
  );
  return rows[0];
}

/** The change request and the caller's role on its space; 404 when they cannot see the space or it has no such change request. */
export async function requireChangeRequest(ctx: AppContext, p: Principal, spaceId: string, idOrNumber: string) {
  const space = await requireSpace(ctx, p, spaceId);
  const cr = await findChangeRequest(ctx.db, spaceId, idOrNumber);
  if (!cr) throw notFound('Change request');
  return { ...space, cr };
}

/** The API object of a change request (outdated from the cache, comments from the comments module). */
export async function presentFull(deps: CrDeps, row: ChangeRequestRow) {
  const live = row.status === 'draft' || row.status === 'open';
  const [outdated, comments] = await Promise.all([
    live ? deps.outdated.get(row.space_id, row.id) : false,
    openCommentCount(deps.ctx, row.id),
  ]);
  return presentChangeRequest(deps.ctx, row, { outdated, comments });
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
  deps: CrDeps,
  p: Principal,
  spaceId: string,
  filter: ListFilter,
  page: PageRequest,
) {
  await requireSpace(deps.ctx, p, spaceId);
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
    deps.ctx.db,
    `SELECT count(*) AS n FROM change_requests cr WHERE ${where.join(' AND ')}`,
    params,
  );
  const rows = await deps.ctx.db.query<ChangeRequestRow>(
    `${CR_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} DESC, cr.number DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  const items = await Promise.all(rows.map((r) => presentFull(deps, r)));
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
  deps: CrDeps,
  p: Principal,
  spaceId: string,
  body: { subject?: string; agentTaskId?: string },
) {
  const { ctx, app } = deps;
  const { role } = await requireActiveSpace(ctx, p, spaceId);
  requireContentRole(role, 'edit', 'create a change request');
  await app.snapshots.revise(spaceId);
  const revisionInitial = await currentSpaceRevision(ctx, spaceId);
  const id = newId();
  await insertRow(ctx, id, spaceId, p, body, revisionInitial);
  await ctx.hub.withDoc(spaceContentDoc(spaceId), (space) =>
    ctx.hub.change(crContentDoc(id), (fork) => Y.applyUpdate(fork, forkUpdate(space)), {
      userId: p.userId,
      reason: 'fork',
    }),
  );
  await app.snapshots.reviseChangeRequest(id, { userId: p.userId });
  return presentFull(deps, (await findChangeRequest(ctx.db, spaceId, id))!);
}

/** PATCH subject/status. Needs `edit`; merged change requests cannot change. */
export async function updateChangeRequest(
  deps: CrDeps,
  p: Principal,
  spaceId: string,
  idOrNumber: string,
  body: { subject?: string; status?: string },
) {
  const { cr, role, row } = await requireChangeRequest(deps.ctx, p, spaceId, idOrNumber);
  if (row.deleted_at) throw badRequest('This space is deleted; restore it first');
  requireContentRole(role, 'edit', 'change this change request');
  if (cr.status === 'merged') throw badRequest('This change request is merged and can no longer change');
  const sets = ['updated_at = $2'];
  const params: unknown[] = [cr.id, deps.ctx.clock.now()];
  if (body.subject !== undefined) {
    params.push(body.subject);
    sets.push(`subject = $${params.length}`);
  }
  if (body.status !== undefined) {
    params.push(body.status);
    sets.push(`status = $${params.length}`);
  }
  await deps.ctx.db.query(`UPDATE change_requests SET ${sets.join(', ')} WHERE id = $1`, params);
  return presentFull(deps, (await findChangeRequest(deps.ctx.db, spaceId, cr.id))!);
}

function requireMergeable(cr: ChangeRequestRow, action: string): void {
  if (cr.status === 'merged') throw badRequest(`This change request is already merged; it cannot ${action}`);
  if (cr.status === 'archived') throw badRequest(`This change request is archived; reopen it to ${action}`);
}

/**
 * Merges the fork into the space (a CRDT merge: the space receives what the
 * fork has and it lacks; concurrent space edits stay). The status becomes
 * `merged` first, so the fork's sockets stop writing; edits already accepted
 * are committed (flush) before the fork's state is read, so none is lost.
 * Needs `review` and an unlocked space.
 */
export async function mergeChangeRequest(deps: CrDeps, p: Principal, spaceId: string, idOrNumber: string) {
  const { ctx, app } = deps;
  const { cr, role, row } = await requireChangeRequest(ctx, p, spaceId, idOrNumber);
  if (row.deleted_at) throw badRequest('This space is deleted; restore it first');
  requireContentRole(role, 'review', 'merge a change request');
  if (row.edit_mode === 'locked') throw forbidden('This space is locked; unlock it to merge');
  requireMergeable(cr, 'be merged');
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
    await app.snapshots.reviseChangeRequest(cr.id, { userId: p.userId });
    await app.snapshots.revise(spaceId, { type: 'merge', userId: p.userId });
  } catch (err) {
    await ctx.db.query('UPDATE change_requests SET status = $2, merged_at = NULL, merged_by = NULL WHERE id = $1', [
      cr.id,
      cr.status,
    ]);
    throw err;
  }
  const revision = await currentSpaceRevision(ctx, spaceId);
  await ctx.db.query('UPDATE change_requests SET revision_merged = $2 WHERE id = $1', [cr.id, revision]);
  return { revision, result: 'merge' as const };
}

/**
 * Update from main: the fork receives what the space has and it lacks (its
 * own concurrent edits stay). revisionMergedAncestor = the space revision it
 * was brought up to. Needs `edit`.
 */
export async function updateFromMain(deps: CrDeps, p: Principal, spaceId: string, idOrNumber: string) {
  const { ctx, app } = deps;
  const { cr, role, row } = await requireChangeRequest(ctx, p, spaceId, idOrNumber);
  if (row.deleted_at) throw badRequest('This space is deleted; restore it first');
  requireContentRole(role, 'edit', 'update a change request');
  requireMergeable(cr, 'be updated');
  await app.snapshots.revise(spaceId);
  const ancestor = await currentSpaceRevision(ctx, spaceId);
  await ctx.hub.withDoc(spaceContentDoc(spaceId), (space) =>
    ctx.hub.change(crContentDoc(cr.id), (fork) => void pullInto(fork, space), { userId: p.userId, reason: 'update' }),
  );
  await app.snapshots.reviseChangeRequest(cr.id, { type: 'update', userId: p.userId });
  await ctx.db.query('UPDATE change_requests SET revision_merged_ancestor = $2, updated_at = $3 WHERE id = $1', [
    cr.id,
    ancestor,
    ctx.clock.now(),
  ]);
  const updated = (await findChangeRequest(ctx.db, spaceId, cr.id))!;
  return { revision: updated.revision, result: 'update' as const };
}
