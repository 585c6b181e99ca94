import type { TestServer } from './server';
import type { TestUser } from './api';
import { asRole, newUser } from './api';
import type { Role } from '../../sync-server/policy/roles';

/**
 * Makes `user` a member of the organization with `role` (null = guest) the
 * way a person would: an org admin creates an invite link with that role and
 * the user joins through it.
 */
export async function addMember(
  t: TestServer,
  organizationId: string,
  user: TestUser,
  role: Role | null,
  adminToken = t.adminToken,
): Promise<void> {
  const invite = await t.clientFor(adminToken).orgs.createOrganizationInvite(organizationId, { role: asRole(role) });
  await t.clientFor(user.token).orgs.joinOrganizationWithInvite(organizationId, invite.data.id);
}

/** A new user who is a member of the organization with `role`. */
export async function newMember(
  t: TestServer,
  organizationId: string,
  role: Role | null,
  name?: string,
): Promise<TestUser> {
  const user = await newUser(t, name);
  await addMember(t, organizationId, user, role);
  return user;
}
