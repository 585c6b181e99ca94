import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { loadActor } from '../../access/actor';
import { queryOne } from '../../store/db';
import { presentUser, viewerOf, type UserRow, type UserViewer } from '../system/present-user';
import { requireChangeRequest } from './service';

/** Reviews and requested reviewers of change requests. */

interface ReviewRow {
  id: string;
  change_request_id: string;
  revision: string;
  status: 'approved' | 'changes-requested';
  created_at: Date;
  reviewer: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  latest: boolean;
}

const REVIEW_SELECT = `SELECT r.id, r.change_request_id, r.revision, r.status, r.created_at, r.reviewer, u.display_name, u.email, u.photo_url,
  NOT EXISTS (SELECT 1 FROM change_request_reviews n WHERE n.change_request_id = r.change_request_id AND n.reviewer = r.reviewer
              AND (n.created_at, n.id) > (r.created_at, r.id)) AS latest
  FROM change_request_reviews r JOIN users u ON u.id = r.reviewer`;

function presentReview(ctx: AppContext, viewer: UserViewer, spaceId: string, row: ReviewRow) {
  return {
    object: 'change-request-review' as const,
    id: row.id,
    revision: row.revision,
    reviewer: presentUser(ctx, viewer, {
      id: row.reviewer,
      display_name: row.display_name,
      email: row.email,
      photo_url: row.photo_url,
    }),
    status: row.status,
    // A review is outdated once the same reviewer submitted a newer one.
    outdated: !row.latest,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.created_at.toISOString(),
    urls: { location: ctx.urls.api(`/spaces/${spaceId}/change-requests/${row.change_request_id}/reviews/${row.id}`) },
  };
}

/** Reviews of a change request, oldest first; `outdated` filters on that flag. */
export async function listReviews(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  crRef: string,
  outdated: boolean | undefined,
  page: PageRequest,
) {
  const { cr, actor } = await requireChangeRequest(ctx, p, spaceId, crRef);
  const rows = (
    await ctx.db.query<ReviewRow>(`${REVIEW_SELECT} WHERE r.change_request_id = $1 ORDER BY r.created_at, r.id`, [
      cr.id,
    ])
  ).filter((r) => outdated === undefined || outdated === !r.latest);
  return listPage(
    rows.slice(page.offset, page.offset + page.limit).map((r) => presentReview(ctx, viewerOf(actor), spaceId, r)),
    rows.length,
    page,
  );
}

export async function getReview(ctx: AppContext, p: Principal, spaceId: string, crRef: string, reviewId: string) {
  const { cr, actor } = await requireChangeRequest(ctx, p, spaceId, crRef);
  const row = await queryOne<ReviewRow>(ctx.db, `${REVIEW_SELECT} WHERE r.change_request_id = $1 AND r.id = $2`, [
    cr.id,
    reviewId,
  ]);
  if (!row) throw notFound('Review');
  return presentReview(ctx, viewerOf(actor), spaceId, row);
}

/** Submits a review against the change request's current revision. Needs `review`; not on merged or archived change requests. */
export async function submitReview(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  crRef: string,
  body: { status: 'approved' | 'changes-requested'; comment?: unknown },
) {
  const { cr } = await requireChangeRequest(ctx, p, spaceId, crRef, 'review');
  const id = newId();
  await ctx.db.query(
    'INSERT INTO change_request_reviews (id, change_request_id, reviewer, revision, status, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      id,
      cr.id,
      p.userId,
      cr.revision,
      body.status,
      body.comment === undefined ? null : JSON.stringify(body.comment),
      ctx.clock.now(),
    ],
  );
  return getReview(ctx, p, spaceId, cr.id, id);
}

interface ReviewerRow extends UserRow {
  revision: string;
  created_at: Date;
  requested_by: string | null;
  req_name: string | null;
  req_email: string | null;
  req_photo: string | null;
}

function presentRequested(ctx: AppContext, viewer: UserViewer, r: ReviewerRow) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: r.revision,
    requestedBy: presentUser(ctx, viewer, {
      id: r.requested_by ?? 'deleted-user',
      display_name: r.req_name ?? 'Deleted user',
      email: r.req_email,
      photo_url: r.req_photo,
    }),
    createdAt: r.created_at.toISOString(),
    kind: 'user' as const,
    user: presentUser(ctx, viewer, r),
  };
}

const REVIEWER_SELECT = `SELECT u.id, u.display_name, u.email, u.photo_url, rr.revision, rr.created_at, rr.requested_by,
  q.display_name AS req_name, q.email AS req_email, q.photo_url AS req_photo
  FROM change_request_reviewers rr JOIN users u ON u.id = rr.user_id LEFT JOIN users q ON q.id = rr.requested_by`;

export async function listRequestedReviewers(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  crRef: string,
  page: PageRequest,
) {
  const { cr, actor } = await requireChangeRequest(ctx, p, spaceId, crRef);
  const rows = await ctx.db.query<ReviewerRow>(
    `${REVIEWER_SELECT} WHERE rr.change_request_id = $1 ORDER BY rr.created_at, u.id`,
    [cr.id],
  );
  return listPage(
    rows.slice(page.offset, page.offset + page.limit).map((r) => presentRequested(ctx, viewerOf(actor), r)),
    rows.length,
    page,
  );
}

/**
 * Requests reviews from organization members (optionally renaming the change
 * request). Needs `edit` (whoever may change the request may ask for review).
 */
export async function requestReviewers(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  crRef: string,
  body: { users: string[]; subject?: string },
) {
  const { cr, row, actor } = await requireChangeRequest(ctx, p, spaceId, crRef, 'request-reviewers');
  const users = [...new Set(body.users)];
  for (const userId of users) {
    const m = await loadActor(ctx.db, row.organization_id, userId);
    if (m.membership.role === undefined)
      throw badRequest(`Unknown user "${userId}": reviewers must be members of the organization`);
  }
  const now = ctx.clock.now();
  for (const userId of users) {
    await ctx.db.query(
      `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by, revision, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = EXCLUDED.requested_by, revision = EXCLUDED.revision, created_at = EXCLUDED.created_at`,
      [cr.id, userId, p.userId, cr.revision, now],
    );
  }
  if (body.subject !== undefined)
    await ctx.db.query('UPDATE change_requests SET subject = $2, updated_at = $3 WHERE id = $1', [
      cr.id,
      body.subject,
      now,
    ]);
  const rows =
    users.length === 0
      ? []
      : await ctx.db.query<ReviewerRow>(
          `${REVIEWER_SELECT} WHERE rr.change_request_id = $1 AND rr.user_id = ANY($2::text[])`,
          [cr.id, users],
        );
  return { users: rows.map((r) => presentRequested(ctx, viewerOf(actor), r)) };
}

/**
 * Removes a review request. Needs `edit`. 204 whether or not it existed, and
 * also when the space or change request is unknown to the caller (reveals nothing).
 */
export async function removeRequestedReviewer(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  crRef: string,
  userId: string,
) {
  let found;
  try {
    found = await requireChangeRequest(ctx, p, spaceId, crRef, 'remove-reviewer');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
  const { cr } = found;
  await ctx.db.query('DELETE FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2', [
    cr.id,
    userId,
  ]);
}
