import { createHmac } from 'node:crypto';
import type { Queryable } from '../store/db';
import { installationSecret } from '../store/server-secrets';

/**
 * Visitor claims of an organization's members (`serviceVisitorClaims` of
 * `POST /v1/orgs/{id}/ping`): a short-lived HS256 JWT that the organization's
 * `visitor-auth` sites accept besides their own site key, so a signed-in
 * member reads the organization's private docs sites without a separate
 * visitor sign-in. The organization's key is derived from an installation
 * secret (HMAC of the organization id): every process agrees on it, nothing
 * is stored per organization, and it never leaves the server.
 */

/** How long a member's visitor token lasts (the app pings again well before). */
export const VISITOR_CLAIMS_TTL_S = 3600;

/** The installation secret of each database handle (it never changes once created, so it is loaded once). */
const secrets = new WeakMap<Queryable, Promise<Buffer>>();

export async function organizationVisitorKey(db: Queryable, organizationId: string): Promise<string> {
  let loading = secrets.get(db);
  if (!loading) {
    loading = installationSecret(db, 'organization-visitor-claims');
    // A failed load (database down) is retried by the next caller.
    loading.catch(() => secrets.delete(db));
    secrets.set(db, loading);
  }
  const secret = await loading;
  return createHmac('sha256', secret).update(`organization:${organizationId}`).digest('base64url');
}

/** The signed claims of one member: who they are and their role, for visitor-auth and adaptive content. */
export async function signMemberVisitorClaims(
  db: Queryable,
  organizationId: string,
  member: { userId: string; email: string | null; displayName: string; role: string | null },
  now: Date,
): Promise<string> {
  const key = await organizationVisitorKey(db, organizationId);
  const iat = Math.floor(now.getTime() / 1000);
  // jose loads on the first signature, not at boot (~30 ms).
  const { SignJWT } = await import('jose');
  return new SignJWT({
    ...(member.email ? { email: member.email } : {}),
    name: member.displayName,
    organization: organizationId,
    role: member.role,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(member.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + VISITOR_CLAIMS_TTL_S)
    .sign(new TextEncoder().encode(key));
}
