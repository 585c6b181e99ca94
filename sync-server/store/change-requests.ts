import type { Queryable } from './db';

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
