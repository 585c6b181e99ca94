import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { crContentDoc, crDiscussionDoc } from '../../docs/doc-names';
import { requireChangeRequest } from '../change-requests/service';
import type { DiscussionScope, ScopeIntent } from './scope';

/**
 * The discussion of a change request (by id or by number in the space): 404
 * when the caller cannot see the space or it has no such change request.
 * Roles are the space's (GitBook has no per-change-request roles); pages are
 * validated against the change request's own content (its fork).
 */
export async function changeRequestScope(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  changeRequestId: string,
  intent: ScopeIntent,
): Promise<DiscussionScope> {
  const { row, role, cr } = await requireChangeRequest(ctx, p, spaceId, changeRequestId);
  if (intent === 'write' && row.deleted_at) throw badRequest('This space is deleted; restore it first');
  return {
    discussionDoc: crDiscussionDoc(cr.id),
    contentDoc: crContentDoc(cr.id),
    spaceId: row.id,
    changeRequestId: cr.id,
    revision: cr.revision,
    role,
    basePath: `/spaces/${row.id}/change-requests/${cr.id}`,
  };
}
