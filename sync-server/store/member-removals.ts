import { queryOne, type Queryable } from './db';

/**
 * Removals an admin made (migration 0016): the domain auto-join and SAML
 * just-in-time provisioning never bring such a person back; an invite they
 * accept does, and clears the row.
 */

/** Remembers that `userId` was removed from the organization (the latest time wins). */
export async function recordMemberRemoval(db: Queryable, organizationId: string, userId: string, now: Date) {
  await db.query(
    `INSERT INTO member_removals (organization_id, user_id, removed_at) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET removed_at = EXCLUDED.removed_at`,
    [organizationId, userId, now],
  );
}

/** Forgets a removal: the person was invited back and accepted. */
export async function clearMemberRemoval(db: Queryable, organizationId: string, userId: string) {
  await db.query('DELETE FROM member_removals WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
}

/** Whether an admin removed `userId` from the organization (and nobody invited them back since). */
export async function wasRemoved(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
  return (
    (await queryOne(db, 'SELECT 1 FROM member_removals WHERE organization_id = $1 AND user_id = $2', [
      organizationId,
      userId,
    ])) !== undefined
  );
}
