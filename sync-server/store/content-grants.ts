import type { Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/**
 * Direct grants on a space or collection (`content_permissions`), as the
 * permissions API lists and changes them. Policy reads the same rows through
 * store/access.ts; every write here goes through the caching database, so it
 * invalidates the read cache and the socket access sweep re-checks open
 * connections (a withdrawn grant closes them).
 */

export type GrantTarget = { type: 'space' | 'collection'; id: string };
export type GrantPrincipal = 'user' | 'team';

/** A user with a direct grant, as listUserPermissionsIn* shows them. */
export interface UserGrantRow {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  role: string;
}

/** One page of the users granted a role on the target directly, by name. */
export function listUserGrantRows(
  db: Queryable,
  target: GrantTarget,
  page: { limit: number; offset: number },
): Promise<CountedPage<UserGrantRow>> {
  return selectCountedPage<UserGrantRow>(
    db,
    {
      columns: 'u.id, u.display_name, u.email, u.photo_url, cp.role',
      from: `FROM content_permissions cp JOIN users u ON u.id = cp.principal_id
        WHERE cp.principal_type = 'user' AND cp.resource_type = $1 AND cp.resource_id = $2`,
      order: 'lower(u.display_name), u.id',
      params: [target.type, target.id],
    },
    page,
  );
}

/** Grants `role` on the target to each principal, replacing the role they had. */
export async function upsertGrants(
  db: Queryable,
  target: GrantTarget,
  principalType: GrantPrincipal,
  principalIds: string[],
  role: string,
): Promise<void> {
  if (principalIds.length === 0) return;
  await db.query(
    `INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role)
     SELECT $1, $2, $3, unnest($4::text[]), $5
     ON CONFLICT (resource_type, resource_id, principal_type, principal_id) DO UPDATE SET role = EXCLUDED.role`,
    [target.type, target.id, principalType, principalIds, role],
  );
}

/** Withdraws one principal's grant on the target; whether there was one. */
export async function deleteGrant(
  db: Queryable,
  target: GrantTarget,
  principalType: GrantPrincipal,
  principalId: string,
): Promise<boolean> {
  const deleted = await db.query(
    `DELETE FROM content_permissions
      WHERE resource_type = $1 AND resource_id = $2 AND principal_type = $3 AND principal_id = $4 RETURNING role`,
    [target.type, target.id, principalType, principalId],
  );
  return deleted.length > 0;
}

/** Gives space `to` the direct grants space `from` has (a duplicate and a translation's result space read alike). */
export async function copySpaceGrants(tx: Queryable, from: string, to: string): Promise<void> {
  await tx.query(
    `INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role)
     SELECT resource_type, $2, principal_type, principal_id, role FROM content_permissions WHERE resource_type = 'space' AND resource_id = $1`,
    [from, to],
  );
}
