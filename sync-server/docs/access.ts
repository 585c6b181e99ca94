import { hashToken } from '../http/ids';
import { principalForToken, type Principal } from '../identity/principal';
import { decide, type Decision } from '../policy';
import { loadActor } from '../access/actor';
import { changeRequestResource, discussionResource, spaceResource } from '../access/resources';
import type { Queryable } from '../store/db';
import { findChangeRequest } from '../store/change-requests';
import { loadSpaceRow } from '../store/spaces';
import { CloseCode, docNameOf, parseSyncPath, type Refusal, type SyncAddress } from '../../shared/sync-contract';

/**
 * Which document a sync URL names, and who may write it. The decision is
 * policy's, the same the REST API takes (a space the caller cannot see is
 * 404; `permissions.edit` of a Space is exactly "this socket may write"), so
 * a socket never grants more than the API would.
 */

/** A document reachable over /v1/sync, with its hub document name. */
export interface SyncTarget extends SyncAddress {
  /** Hub document name, e.g. `space/<id>/content`. */
  docName: string;
}

/** Maps a request path to its document (the contract's grammar), or undefined (-> 404). */
export function matchSyncPath(pathname: string): SyncTarget | undefined {
  const address = parseSyncPath(pathname);
  return address && { ...address, docName: docNameOf(address) };
}

/** How a socket says a policy refusal: close codes the stock y-websocket client understands. */
function refusalOf(decision: Decision & { allowed: false }, status?: string): Refusal {
  switch (decision.reason) {
    case 'deleted':
      return { code: CloseCode.deleted, reason: 'space deleted' };
    case 'locked':
      return { code: CloseCode.locked, reason: 'space locked' };
    case 'closed':
      return { code: CloseCode.locked, reason: `change request ${status ?? 'closed'}` };
    case 'server-only':
      return { code: CloseCode.readOnly, reason: 'read-only: discussions are written through the API' };
    default:
      return { code: CloseCode.readOnly, reason: 'read-only' };
  }
}

/**
 * Whether a refusal means the caller lost access altogether (token revoked,
 * document no longer visible), as opposed to a write refusal (read-only,
 * locked, deleted) that leaves a reader free to keep reading.
 */
export function lostAccess(refusal: Refusal): boolean {
  return refusal.code === CloseCode.unauthorized || refusal.code === CloseCode.notFound;
}

/**
 * Whether `principal` may write `target`: `'not-found'` when they cannot even
 * see it (or it does not exist), a refusal when they may only read, undefined
 * when they may write. A change request is read uncached: a merge must stop
 * writes at once.
 */
export async function writeRefusal(
  db: Queryable,
  principal: Principal,
  target: SyncTarget,
): Promise<Refusal | undefined | 'not-found'> {
  const space = await loadSpaceRow(db, target.spaceId);
  if (!space) return 'not-found';
  const actor = await loadActor(db, space.organization_id, principal.userId);
  let decision: Decision;
  let status: string | undefined;
  if (target.changeRequestId) {
    const cr = await findChangeRequest(db, target.spaceId, target.changeRequestId);
    if (!cr || cr.id !== target.changeRequestId) return 'not-found';
    status = cr.status;
    decision =
      target.kind === 'discussion'
        ? decide(actor, 'write-document', discussionResource(space, cr))
        : decide(actor, 'edit-content', changeRequestResource(cr, space));
  } else {
    decision =
      target.kind === 'discussion'
        ? decide(actor, 'write-document', discussionResource(space))
        : decide(actor, 'edit-content', spaceResource(space));
  }
  if (decision.allowed) return undefined;
  return decision.reason === 'not-found' ? 'not-found' : refusalOf(decision, status);
}

/** A connection's view of its rights, re-checkable while it stays open. */
export interface SyncAccess {
  target: SyncTarget;
  principal: Principal;
  /** Identifies the token (its hash): connections sharing a token and a target get the same decisions. */
  credential: string;
  /** The decision taken at connect time. */
  initial: Refusal | undefined;
  /** Decides again (token still valid? space still visible? role, lock, deletion). */
  recheck(): Promise<Refusal | undefined>;
}

/** Authenticates and authorizes an upgrade; resolves to an HTTP status when it must be refused. */
export async function authorizeUpgrade(
  db: Queryable,
  token: string | undefined,
  target: SyncTarget,
): Promise<SyncAccess | 401 | 404> {
  if (!token) return 401;
  const principal = await principalForToken(db, token);
  if (!principal) return 401;
  const initial = await writeRefusal(db, principal, target);
  if (initial === 'not-found') return 404;
  return {
    target,
    principal,
    credential: hashToken(token),
    initial,
    async recheck() {
      // The token may have been revoked since the upgrade (principalForToken is read-cached, so this is cheap).
      const current = await principalForToken(db, token);
      if (!current) return { code: CloseCode.unauthorized, reason: 'token revoked' };
      const refusal = await writeRefusal(db, current, target);
      return refusal === 'not-found' ? { code: CloseCode.notFound, reason: 'space not found' } : refusal;
    },
  };
}
