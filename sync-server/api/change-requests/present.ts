import type { AppContext } from '../../context';
import { presentUser } from '../system/present-user';

/** A change request row joined with its author and merger (see CR_SELECT). */
export interface ChangeRequestRow {
  id: string;
  space_id: string;
  number: number;
  subject: string;
  status: 'draft' | 'open' | 'merged' | 'archived';
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  revision: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  agent_task_id: string | null;
  merged_at: Date | null;
  merged_by: string | null;
  creator_name: string | null;
  creator_email: string | null;
  creator_photo: string | null;
  merger_name: string | null;
  merger_email: string | null;
  merger_photo: string | null;
}

/** Every column of a change request plus its creator and merger users (alias `cr`). */
export const CR_SELECT = `SELECT cr.*, cu.display_name AS creator_name, cu.email AS creator_email, cu.photo_url AS creator_photo,
  mu.display_name AS merger_name, mu.email AS merger_email, mu.photo_url AS merger_photo
  FROM change_requests cr LEFT JOIN users cu ON cu.id = cr.created_by LEFT JOIN users mu ON mu.id = cr.merged_by`;

/** A user that no longer exists still needs a `User` object (createdBy is required). */
function userOf(ctx: AppContext, id: string | null, name: string | null, email: string | null, photo: string | null) {
  return presentUser(ctx, { id: id ?? 'deleted-user', display_name: name ?? 'Deleted user', email, photo_url: photo });
}

/** Row -> API `ChangeRequest`; `outdated` and `comments` are computed by the caller. */
export function presentChangeRequest(
  ctx: AppContext,
  row: ChangeRequestRow,
  extra: { outdated: boolean; comments: number },
) {
  return {
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: userOf(ctx, row.created_by, row.creator_name, row.creator_email, row.creator_photo),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.merged_at
      ? {
          mergedAt: row.merged_at.toISOString(),
          mergedBy: userOf(ctx, row.merged_by, row.merger_name, row.merger_email, row.merger_photo),
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
