import { badRequest } from '../../http/errors';
import { isRole, maxRole, rank, type RoleOrNone } from '../../policy/roles';
import type { Queryable } from '../../store/db';
import { countOtherActiveAdmins, insertMember, loadMemberState, setMemberRoleAndSso } from '../../store/members';
import { lockOrganizationRow } from '../../store/organizations';

/** A stored role column as a role; anything else (NULL, or a value no longer known) is a guest's "no role". */
export function storedRole(value: string | null): RoleOrNone {
  return isRole(value) ? value : null;
}

/** What `addOrRaiseMember` did. */
export type MembershipChange = 'added' | 'raised' | 'unchanged' | 'disabled';

/**
 * Makes a user a member of an organization with at least `role` (null =
 * guest): a new member is inserted; an existing member keeps their role when
 * it is already as high, else is raised to it. Never lowers a role (joining
 * with a link must not demote anyone). A disabled membership is left alone (an
 * admin disabled it; joining must not undo that). Call inside a transaction
 * when combined with other writes.
 */
export async function addOrRaiseMember(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: RoleOrNone,
  options: { now: Date; sso?: boolean },
): Promise<MembershipChange> {
  const existing = await loadMemberState(db, organizationId, userId, { lock: true });
  if (!existing) {
    const added = await insertMember(db, {
      organizationId,
      userId,
      role,
      sso: options.sso ?? false,
      joinedAt: options.now,
    });
    return added ? 'added' : 'unchanged';
  }
  if (existing.disabled) return 'disabled';
  const current = storedRole(existing.role);
  const wanted = maxRole(current, role);
  const raise = rank(wanted) > rank(current);
  const addSso = options.sso === true && !existing.sso;
  if (raise || addSso) await setMemberRoleAndSso(db, organizationId, userId, wanted, addSso);
  return raise ? 'raised' : 'unchanged';
}

/**
 * Refuses (400) a change that would leave the organization without an active
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
  await lockOrganizationRow(tx, organizationId);
  const target = await loadMemberState(tx, organizationId, userId);
  if (target?.role !== 'admin' || target.disabled) return;
  if ((await countOtherActiveAdmins(tx, organizationId, userId)) === 0) {
    throw badRequest(
      `Cannot ${action}: this member is the last admin of the organization; make another member admin first`,
    );
  }
}
