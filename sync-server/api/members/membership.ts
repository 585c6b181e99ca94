import { badRequest } from '../../http/errors';
import { isRole, maxRole, rank, type RoleOrNone } from '../../policy/roles';
import { queryOne, type Queryable } from '../../store/db';

/** What `addOrRaiseMember` did. */
export type MembershipChange = 'added' | 'raised' | 'unchanged' | 'disabled';

/**
 * Makes a user a member of an organization with at least `role` (null =
 * guest): a new member is inserted; an existing member keeps their role when
 * it is already as high, else is raised to it. Never lowers a role. A disabled
 * membership is left alone (an admin disabled it; joining must not undo that).
 * Call inside a transaction when combined with other writes.
 */
export async function addOrRaiseMember(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: RoleOrNone,
  options: { now: Date; sso?: boolean },
): Promise<MembershipChange> {
  const existing = await queryOne<{ role: string | null; disabled: boolean; sso: boolean }>(
    db,
    'SELECT role, disabled, sso FROM members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE',
    [organizationId, userId],
  );
  if (!existing) {
    // ON CONFLICT: a concurrent join of the same user must not fail with a duplicate key.
    const inserted = await db.query(
      `INSERT INTO members (organization_id, user_id, role, sso, joined_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING user_id`,
      [organizationId, userId, role, options.sso ?? false, options.now],
    );
    return inserted.length > 0 ? 'added' : 'unchanged';
  }
  if (existing.disabled) return 'disabled';
  const current: RoleOrNone = isRole(existing.role) ? existing.role : null;
  const wanted = maxRole(current, role);
  const raise = rank(wanted) > rank(current);
  const addSso = options.sso === true && !existing.sso;
  if (raise || addSso) {
    await db.query('UPDATE members SET role = $3, sso = sso OR $4 WHERE organization_id = $1 AND user_id = $2', [
      organizationId,
      userId,
      wanted,
      addSso,
    ]);
  }
  return raise ? 'raised' : 'unchanged';
}

/**
 * Refuses a change that would leave the organization without an active
 * admin. It locks the organization row first, so two admins demoting each
 * other at the same time are serialized and the second one is refused.
 * Call inside the transaction that makes the change.
 */
export async function assertKeepsAnAdmin(
  tx: Queryable,
  organizationId: string,
  userId: string,
  action: string,
): Promise<void> {
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
  const target = await queryOne<{ role: string | null; disabled: boolean }>(
    tx,
    'SELECT role, disabled FROM members WHERE organization_id = $1 AND user_id = $2',
    [organizationId, userId],
  );
  if (target?.role !== 'admin' || target.disabled) return;
  const others = await queryOne<{ n: number }>(
    tx,
    "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND user_id <> $2 AND role = 'admin' AND NOT disabled",
    [organizationId, userId],
  );
  if (!others || Number(others.n) === 0) {
    throw badRequest(
      `Cannot ${action}: this member is the last admin of the organization; make another member admin first`,
    );
  }
}
