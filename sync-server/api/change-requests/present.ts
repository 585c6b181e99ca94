import type { AppContext } from '../../context';
import { presentUser, type UserViewer } from '../system/present-user';
import type { ChangeRequestRow } from '../../store/change-requests';

/** Row -> API `ChangeRequest` as `viewer` may see it; `outdated` and `comments` are computed by the caller. */
export function presentChangeRequest(
  ctx: AppContext,
  viewer: UserViewer,
  row: ChangeRequestRow,
  extra: { outdated: boolean; comments: number },
) {
  /** A user that no longer exists still needs a `User` object (createdBy is required). */
  const userOf = (id: string | null, name: string | null, email: string | null, photo: string | null) =>
    presentUser(ctx, viewer, {
      id: id ?? 'deleted-user',
      display_name: name ?? 'Deleted user',
      email,
      photo_url: photo,
    });
  return {
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: userOf(row.created_by, row.creator_name, row.creator_email, row.creator_photo),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.merged_at
      ? {
          mergedAt: row.merged_at.toISOString(),
          mergedBy: userOf(row.merged_by, row.merger_name, row.merger_email, row.merger_photo),
        }
      : {}),
    space: row.space_id,
    revision: row.revision,
    revisionInitial: row.revision_initial,
    ...(row.revision_merged_ancestor ? { revisionMergedAncestor: row.revision_merged_ancestor } : {}),
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    ...(row.agent_task_id ? { agentTaskId: row.agent_task_id } : {}),
    comments: extra.comments,
    outdated: extra.outdated,
    urls: {
      app: ctx.urls.app(`/s/${row.space_id}/~/changes/${row.number}`),
      location: ctx.urls.api(`/spaces/${row.space_id}/change-requests/${row.id}`),
    },
  };
}
