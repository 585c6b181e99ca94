import { hashToken } from '../http/ids';
import type { Queryable } from '../store/db';
import { cachedRead } from '../store/read-cache';
import { findUserByTokenHash } from '../store/users';

/** The authenticated caller of a request or a socket. */
export interface Principal {
  userId: string;
  displayName: string;
  email: string | null;
  photoUrl: string | null;
  instanceAdmin: boolean;
}

/**
 * Resolves a bearer token to its user, or undefined when unknown. Cached for
 * a few seconds: a token revoked by the CLI (another process) stops working
 * within the cache TTL, one revoked through this server at once.
 */
export async function principalForToken(db: Queryable, token: string): Promise<Principal | undefined> {
  const hash = hashToken(token);
  return cachedRead(db, `token:${hash}`, async () => {
    const u = await findUserByTokenHash(db, hash);
    return (
      u && {
        userId: u.id,
        displayName: u.display_name,
        email: u.email,
        photoUrl: u.photo_url,
        instanceAdmin: u.instance_admin,
      }
    );
  });
}

/** Extracts the token from an `Authorization: Bearer …` header value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
