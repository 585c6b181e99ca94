import type { Queryable } from '../store/db';
import { forbidden, notFound } from '../http/errors';
import { AccessIndex, loadMembership, type ContentNode, type OrgMembership } from './access';
import { atLeast, type Role, type RoleOrNone } from './roles';

/**
 * Route-facing checks. They throw the right ApiError: 404 when the caller may
 * not even know the resource exists, 403 when they can see it but not do this.
 */

/** The caller's membership in an organization; 404 when they do not belong to it (or it does not exist). */
export async function requireOrgMember(db: Queryable, organizationId: string, userId: string): Promise<OrgMembership> {
  const m = await loadMembership(db, organizationId, userId);
  if (m.role === undefined) throw notFound('Organization');
  return m;
}

/** Requires at least `role` in the organization (guests have none). */
export function requireOrgRole(m: OrgMembership, role: Role, action = 'do this'): void {
  if (!atLeast(m.role ?? null, role)) throw forbidden(`You need the "${role}" role in this organization to ${action}`);
}

/** Requires a full (non-guest) member. */
export function requireFullMember(m: OrgMembership, action = 'do this'): void {
  if (m.role === null || m.role === undefined) throw forbidden(`Guests cannot ${action}`);
}

/**
 * The caller's role on a space or collection. 404 (with `what`) when they
 * have no access at all, so ids of other people's content reveal nothing.
 */
export async function requireContentAccess(
  db: Queryable,
  node: ContentNode,
  userId: string,
  what: string,
): Promise<{ role: Role; membership: OrgMembership; index: AccessIndex }> {
  const membership = await loadMembership(db, node.organizationId, userId);
  const index = await AccessIndex.load(db, membership);
  const role = index.roleOf(node);
  if (!role) throw notFound(what);
  return { role, membership, index };
}

/** Requires `required` on content the caller can already see. */
export function requireContentRole(role: RoleOrNone, required: Role, action: string): void {
  if (!atLeast(role, required)) throw forbidden(`You need the "${required}" role to ${action}`);
}

/**
 * For DELETE routes: the caller's membership, or undefined when they do not
 * belong to the organization (or it does not exist). DELETE of what the
 * caller cannot see answers 204 like DELETE of what does not exist, so it
 * neither errors nor reveals anything; the route then does nothing.
 */
export async function membershipForDelete(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<OrgMembership | undefined> {
  const m = await loadMembership(db, organizationId, userId);
  return m.role === undefined ? undefined : m;
}
