import { isRole, type Role } from '../../policy/roles';
import type { Queryable } from '../../store/db';
import { insertMember } from '../../store/members';
import { listOrganizationRowsByEmailDomain } from '../../store/organizations';

/** The domain part of an address, lower-case ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/**
 * Makes a person who just proved an address (an OpenID provider vouched for
 * it, or they opened a link mailed to it) a member of every organization that
 * declares the address's domain in `emailDomains`, with the organization's
 * `defaultRole` (`read` when it has none, as for email invites). Existing
 * memberships are left alone, a disabled one included (an admin disabled it;
 * signing in must not undo that). Returns the organizations joined.
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
    if (org.is_member) continue;
    const role: Role = isRole(org.default_role) ? org.default_role : 'read';
    if (await insertMember(db, { organizationId: org.id, userId, role, sso: false, joinedAt: now }))
      joined.push(org.id);
  }
  return joined;
}

/** Whether some organization declares this address's domain (its people may sign in by email link). */
export async function hasEmailDomainOrganization(db: Queryable, email: string): Promise<boolean> {
  const domain = emailDomain(email);
  // The user id matches nobody: only whether such organizations exist matters here.
  return domain !== '' && (await listOrganizationRowsByEmailDomain(db, domain, '')).length > 0;
}
