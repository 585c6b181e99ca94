import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { spaceContentDoc, spaceDiscussionDoc } from '../../docs/doc-names';
import type { Role } from '../../policy/roles';
import { requireSpace } from '../spaces/service';

/**
 * Where a discussion lives and what the caller may do there. The comment
 * operations are written once against this, and each owner (a space, a
 * change request) only says how to find it.
 */
export interface DiscussionScope {
  /** Hub name of the discussion document. */
  discussionDoc: string;
  /** Hub name of the content document whose pages comments may target. */
  contentDoc: string;
  spaceId: string;
  /** Set for a change request's discussion (becomes `target.changeRequest`). */
  changeRequestId?: string;
  /** Revision the targets are found in (`target.revision`, required by GitBook). */
  revision: string;
  /** The caller's role on the space (a change request inherits its space's roles). */
  role: Role;
  /** API path of the owner, e.g. `/spaces/abc`; comment URLs hang below it. */
  basePath: string;
}

/** Does the caller want to write? Writes refuse soft-deleted owners (400), reads do not. */
export type ScopeIntent = 'read' | 'write';

/** The discussion of a space the caller can see (404 otherwise). */
export async function spaceScope(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  intent: ScopeIntent,
): Promise<DiscussionScope> {
  const { row, role } = await requireSpace(ctx, p, spaceId);
  if (intent === 'write' && row.deleted_at) throw badRequest('This space is deleted; restore it first');
  return {
    discussionDoc: spaceDiscussionDoc(row.id),
    contentDoc: spaceContentDoc(row.id),
    spaceId: row.id,
    revision: row.revision,
    role,
    basePath: `/spaces/${row.id}`,
  };
}

/**
 * What the change-request module must provide for its comment routes: the
 * discussion scope of change request `changeRequestId` (its id or its number
 * in the space) in space `spaceId`, as the caller sees it — 404 (notFound)
 * when they cannot see the space or the change request does not exist there.
 * Expected fields: discussionDoc = crDiscussionDoc(crId), contentDoc = the
 * fork's content document, changeRequestId = the CR's id (never its number),
 * revision = the CR's active revision, role = the caller's space role,
 * basePath = `/spaces/<spaceId>/change-requests/<crId>`.
 */
export type ChangeRequestScopeLookup = (
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  changeRequestId: string,
  intent: ScopeIntent,
) => Promise<DiscussionScope>;
