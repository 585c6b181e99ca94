import { isRole, type Role } from '../../policy/roles';
import { emailDomain, findOrCreateUserByEmail, mustUseSso } from '../../identity/accounts';
import type { Db, Queryable } from '../../store/db';
import { findUserByEmail } from '../../store/users';
import { insertMember } from '../../store/members';
import { listOrganizationRowsByEmailDomain } from '../../store/organizations';

/**
 * Makes a person who just proved an address (an OpenID provider vouched for
 * it, or they opened a link mailed to it) a member of the organization that
 * declares the address's domain in `emailDomains` and has verified it, with
 * the organization's `defaultRole` (`read` when it has none, as for email
 * invites). Existing memberships are left alone, a disabled one included (an
 * admin disabled it; signing in must not undo that), and so is a person who
 * was removed (only an invite they accept brings them back). Returns the
 * organizations joined.
 */
export async function joinEmailDomainOrganizations(
  db: Queryable,
  userId: string,
  email: string,
  now: Date,
): Promise<string[]> {
  const domain = emailDomain(email);
  if (!domain) return [];
  const joined: string[] = [];
  for (const org of await listOrganizationRowsByEmailDomain(db, domain, userId)) {
    if (org.is_member || org.was_removed) continue;
    const role: Role = isRole(org.default_role) ? org.default_role : 'read';
    if (await insertMember(db, { organizationId: org.id, userId, role, sso: false, joinedAt: now }))
      joined.push(org.id);
  }
  return joined;
}

/** Whether an organization declares and has verified this address's domain (its people may sign in by email link). */
export async function hasEmailDomainOrganization(db: Queryable, email: string): Promise<boolean> {
  const domain = emailDomain(email);
  // The user id matches nobody: only whether such organizations exist matters here.
  return domain !== '' && (await listOrganizationRowsByEmailDomain(db, domain, '')).length > 0;
}

/** Why a vouched-for address may not sign in here: its organization requires SAML SSO. */
export const SSO_REQUIRED_MESSAGE =
  "Your organization requires its single sign-on: sign in with your organization's SSO instead";

/**
 * The account of a person whose address was just proved (by an OpenID
 * provider, or by a mailed link): 'sso-required' when they must sign in
 * through their organization's SAML SSO; otherwise their user, made just in
 * time, and joined to the organizations of their email domain, in one
 * transaction.
 */
export async function accountForProvedEmail(
  db: Db,
  person: { email: string; displayName?: string | undefined },
  now: Date,
): Promise<{ userId: string } | 'sso-required'> {
  const email = person.email.trim().toLowerCase();
  const existing = await findUserByEmail(db, email);
  if (existing && (await mustUseSso(db, existing.id))) return 'sso-required';
  const userId = await db.transaction(async (tx) => {
    const { userId } = await findOrCreateUserByEmail(tx, { email, displayName: person.displayName });
    await joinEmailDomainOrganizations(tx, userId, email, now);
    return userId;
  });
  return { userId };
}
