import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { crContentDoc, crDiscussionDoc, spaceContentDoc, spaceDiscussionDoc } from '../../../shared/sync-contract';
import { decide, type Actor } from '../../policy';
import type { DiscussionResource, PostResource } from '../../policy/discussion';
import type { Role } from '../../policy/roles';
import { discussionResource } from '../../access/resources';
import { enforce } from '../authorize';
import { requireChangeRequest } from '../change-requests/service';
import { requireSpace } from '../spaces/service';

/**
 * Where a discussion lives and who is asking. The comment operations are
 * written once against this, for a space's discussion and a change
 * request's alike; what the caller may do there is policy's to say
 * (`resource` + `actor`).
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
  actor: Actor;
  resource: DiscussionResource;
}

/** Does the caller want to change the discussion? Changes refuse soft-deleted owners (400), reads do not. */
export type ScopeIntent = 'read' | 'write';

/**
 * The discussion of a space, or of one of its change requests (by id or by
 * number in the space), as the caller sees it: 404 when they cannot see the
 * space or the change request does not exist there. Pages are validated
 * against the owner's own content (a change request's fork).
 */
export async function discussionScope(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  changeRequestId: string | undefined,
  intent: ScopeIntent,
): Promise<DiscussionScope> {
  const { row, role, actor, cr } = changeRequestId
    ? await requireChangeRequest(ctx, p, spaceId, changeRequestId)
    : { ...(await requireSpace(ctx, p, spaceId)), cr: undefined };
  const resource = discussionResource(row, cr);
  enforce(decide(actor, intent === 'write' ? 'change' : 'view', resource));
  const owner = cr
    ? {
        discussionDoc: crDiscussionDoc(cr.id),
        contentDoc: crContentDoc(cr.id),
        changeRequestId: cr.id,
        revision: cr.revision,
        basePath: `/spaces/${row.id}/change-requests/${cr.id}`,
      }
    : {
        discussionDoc: spaceDiscussionDoc(row.id),
        contentDoc: spaceContentDoc(row.id),
        revision: row.revision,
        basePath: `/spaces/${row.id}`,
      };
  return { ...owner, spaceId: row.id, role, actor, resource };
}

/** One post (comment or reply) of the scope's discussion, as a policy resource. */
export function postIn(scope: DiscussionScope, authorId: string): PostResource {
  return { type: 'post', discussion: scope.resource, authorId };
}
