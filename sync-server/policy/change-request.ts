import { decideSpace, type SpaceResource } from './content';
import { deny, firstDenial, forbidden, type Decision } from './decision';
import { atLeast } from './roles';
import type { Subject } from './subject';

export type ChangeRequestStatus = 'draft' | 'open' | 'merged' | 'archived';

/**
 * A change request as policy sees it. Roles are the space's (GitBook has no
 * per-change-request roles); its fork is edited while it is draft or open.
 */
export interface ChangeRequestResource {
  type: 'change-request';
  space: SpaceResource;
  status: ChangeRequestStatus;
}

export type ChangeRequestAction =
  | 'view'
  /** Write the fork's content (sync socket, REST content changes). The space's lock does not apply: forks are how locked spaces change. */
  | 'edit-content'
  /** PATCH subject / status (an archived one can be reopened). */
  | 'update'
  | 'merge'
  | 'update-from-main'
  | 'review'
  | 'request-reviewers'
  | 'remove-reviewer';

const isClosed = (status: ChangeRequestStatus) => status === 'merged' || status === 'archived';

function closed(cr: ChangeRequestResource, action: string): Decision | undefined {
  if (cr.status === 'merged')
    return deny({ reason: 'closed', message: `This change request is already merged; it cannot ${action}` });
  if (cr.status === 'archived')
    return deny({ reason: 'closed', message: `This change request is archived; reopen it to ${action}` });
  return undefined;
}

/** May `subject` (with their role on the space) do `action` to the change request? */
export function decideChangeRequest(
  subject: Subject,
  action: ChangeRequestAction,
  cr: ChangeRequestResource,
): Decision {
  const role = subject.role ?? null;
  const needs = (required: 'edit' | 'review', phrase: string) =>
    atLeast(role, required) ? undefined : forbidden(`You need the "${required}" role to ${phrase}`);
  const visible = decideSpace(subject, 'view', cr.space);
  const active = cr.space.deleted
    ? deny({ reason: 'deleted', message: 'This space is deleted; restore it first' })
    : undefined;
  switch (action) {
    case 'view':
      return visible;
    case 'edit-content':
      return firstDenial(visible, active, needs('edit', 'edit this change request'), closed(cr, 'be edited'));
    case 'update':
      return firstDenial(
        visible,
        active,
        needs('edit', 'change this change request'),
        cr.status === 'merged'
          ? deny({ reason: 'closed', message: 'This change request is merged and can no longer change' })
          : undefined,
      );
    case 'merge':
      return firstDenial(visible, decideSpace(subject, 'merge-change-request', cr.space), closed(cr, 'be merged'));
    case 'update-from-main':
      return firstDenial(visible, active, needs('edit', 'update a change request'), closed(cr, 'be updated'));
    case 'review':
      return firstDenial(
        visible,
        needs('review', 'review a change request'),
        isClosed(cr.status)
          ? deny({ reason: 'closed', message: `This change request is ${cr.status}; it cannot be reviewed` })
          : undefined,
      );
    case 'request-reviewers':
      return firstDenial(
        visible,
        needs('edit', 'request reviewers'),
        isClosed(cr.status) ? deny({ reason: 'closed', message: `This change request is ${cr.status}` }) : undefined,
      );
    case 'remove-reviewer':
      return firstDenial(visible, needs('edit', 'remove a requested reviewer'));
  }
}

/** Whether the fork still takes edits (draft or open). */
export function isEditableStatus(status: ChangeRequestStatus): boolean {
  return !isClosed(status);
}
