import type { Queryable } from '../store/db';
import { findUserByEmail, ssoOnlyOrganizationIds } from '../store/users';
import { createUser } from './users';

/**
 * The account an identity provider vouched for: the user with that email, or
 * a new user made just in time (`created`). Emails are compared lower-case,
 * as they are stored.
 */
export async function findOrCreateUserByEmail(
  db: Queryable,
  person: { email: string; displayName?: string | undefined },
): Promise<{ userId: string; created: boolean }> {
  const email = person.email.trim().toLowerCase();
  const existing = await findUserByEmail(db, email);
  if (existing) return { userId: existing.id, created: false };
  const displayName = person.displayName?.trim() || email.split('@')[0] || email;
  try {
    return { userId: await createUser(db, { displayName, email }), created: true };
  } catch (err) {
    // Two sign-ins of a new person at once: the other one created the user first.
    const raced = await findUserByEmail(db, email);
    if (raced) return { userId: raced.id, created: false };
    throw err;
  }
}

/**
 * Whether `userId` must sign in through their organization's SAML provider:
 * an organization with `sso` on flags them as an SSO member. Such a person
 * gets no email link, no OpenID Connect session and no new token otherwise.
 */
export async function mustUseSso(db: Queryable, userId: string): Promise<boolean> {
  return (await ssoOnlyOrganizationIds(db, userId)).length > 0;
}

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
