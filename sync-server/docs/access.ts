import type { AppContext } from '../context';
import { principalForToken, type Principal } from '../http/auth';
import { ApiError } from '../http/errors';
import { requireSpace } from '../api/spaces/service';
import { atLeast } from '../policy/roles';
import { CloseCode, type Refusal } from './close-codes';
import { crContentDoc, crDiscussionDoc, spaceContentDoc, spaceDiscussionDoc } from './doc-names';
import { findChangeRequest } from '../api/change-requests/service';

/**
 * Which document a sync URL names, and who may write it. The same policy as
 * the REST API (requireSpace: 404 when the caller cannot see the space), so a
 * socket never grants more than the API would.
 */

/** A document reachable over /v1/sync. */
export interface SyncTarget {
  /** Hub document name, e.g. `space/<id>/content`. */
  docName: string;
  spaceId: string;
  kind: 'content' | 'discussion';
  /** Set for a change request's documents (its id; numbers are not accepted on sync paths). */
  changeRequestId?: string;
}

// Ids are [a-zA-Z0-9_-] (GitBook's pattern); anything else cannot name a space.
const SPACE_PATH = /^\/v1\/sync\/spaces\/([A-Za-z0-9_-]{1,64})(\/discussion)?\/?$/;
const CR_PATH = /^\/v1\/sync\/spaces\/([A-Za-z0-9_-]{1,64})\/change-requests\/([A-Za-z0-9_-]{1,64})(\/discussion)?\/?$/;

/** Maps a request path to its document, or undefined (-> 404). */
export function matchSyncPath(pathname: string): SyncTarget | undefined {
  const cr = CR_PATH.exec(pathname);
  if (cr) {
    const [, spaceId, changeRequestId, discussion] = cr as unknown as [string, string, string, string | undefined];
    return discussion
      ? { docName: crDiscussionDoc(changeRequestId), spaceId, changeRequestId, kind: 'discussion' }
      : { docName: crContentDoc(changeRequestId), spaceId, changeRequestId, kind: 'content' };
  }
  const m = SPACE_PATH.exec(pathname);
  if (!m) return undefined;
  const spaceId = m[1]!;
  return m[2]
    ? { docName: spaceDiscussionDoc(spaceId), spaceId, kind: 'discussion' }
    : { docName: spaceContentDoc(spaceId), spaceId, kind: 'content' };
}

/**
 * Why `principal` may not write `target` (undefined: they may). Throws the
 * API's 404 ApiError when they cannot even see the space.
 */
export async function writeRefusal(
  ctx: AppContext,
  principal: Principal,
  target: SyncTarget,
): Promise<Refusal | undefined> {
  const { row, role } = await requireSpace(ctx, principal, target.spaceId);
  if (target.changeRequestId) return changeRequestRefusal(ctx, target.changeRequestId, target, role, row.deleted_at);
  // Discussions are written through the REST API only: comments carry authors and permissions a raw CRDT write would bypass.
  if (target.kind === 'discussion')
    return { code: CloseCode.readOnly, reason: 'read-only: discussions are written through the API' };
  if (!atLeast(role, 'edit')) return { code: CloseCode.readOnly, reason: 'read-only' };
  if (row.deleted_at) return { code: CloseCode.deleted, reason: 'space deleted' };
  if (row.edit_mode === 'locked') return { code: CloseCode.locked, reason: 'space locked' };
  return undefined;
}

/**
 * A change request's fork: `edit` on the space, and the change request still
 * draft or open (merged and archived ones refuse writes like a locked space;
 * the space's own lock does not apply: forks are how locked spaces change).
 * Read uncached: a merge must stop writes at once.
 */
async function changeRequestRefusal(
  ctx: AppContext,
  crId: string,
  target: SyncTarget,
  role: Parameters<typeof atLeast>[0],
  deletedAt: Date | null,
): Promise<Refusal | undefined> {
  const cr = await findChangeRequest(ctx.db, target.spaceId, crId);
  if (!cr || cr.id !== crId) throw new ApiError(404, 'Change request not found');
  if (target.kind === 'discussion')
    return { code: CloseCode.readOnly, reason: 'read-only: discussions are written through the API' };
  if (!atLeast(role, 'edit')) return { code: CloseCode.readOnly, reason: 'read-only' };
  if (deletedAt) return { code: CloseCode.deleted, reason: 'space deleted' };
  if (cr.status === 'merged' || cr.status === 'archived')
    return { code: CloseCode.locked, reason: `change request ${cr.status}` };
  return undefined;
}

/** A connection's view of its rights, re-checkable while it stays open. */
export interface SyncAccess {
  target: SyncTarget;
  principal: Principal;
  /** The decision taken at connect time. */
  initial: Refusal | undefined;
  /** Decides again (token still valid? space still visible? role, lock, deletion). */
  recheck(): Promise<Refusal | undefined>;
}

/** Authenticates and authorizes an upgrade; resolves to an HTTP status when it must be refused. */
export async function authorizeUpgrade(
  ctx: AppContext,
  token: string | undefined,
  target: SyncTarget,
): Promise<SyncAccess | 401 | 404> {
  if (!token) return 401;
  const principal = await principalForToken(ctx.db, token);
  if (!principal) return 401;
  let initial: Refusal | undefined;
  try {
    initial = await writeRefusal(ctx, principal, target);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 404;
    throw err;
  }
  return {
    target,
    principal,
    initial,
    async recheck() {
      // The token may have been revoked since the upgrade (principalForToken is read-cached, so this is cheap).
      const current = await principalForToken(ctx.db, token);
      if (!current) return { code: CloseCode.unauthorized, reason: 'token revoked' };
      try {
        return await writeRefusal(ctx, current, target);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404)
          return { code: CloseCode.notFound, reason: 'space not found' };
        throw err;
      }
    },
  };
}
