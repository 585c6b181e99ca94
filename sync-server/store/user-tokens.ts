import type { Queryable } from './db';
import type { TokenKind } from './users';

/** One credential of a user (API token, web session, desktop device), without its secret. */
export interface UserTokenRow {
  id: string;
  label: string;
  created_at: Date;
  last_used_at: Date | null;
  token_hash: string;
  legacy_sha256: boolean;
  kind: TokenKind;
  expires_at: Date | null;
  sign_in_method: string | null;
  user_agent: string | null;
}

const COLUMNS =
  'id, label, created_at, last_used_at, token_hash, legacy_sha256, kind, expires_at, sign_in_method, user_agent';

/**
 * The user's credentials that still authenticate, oldest first (the digest is
 * only compared with the caller's own, never shown). Expiry is judged by the
 * database clock, as the token lookup (store/users.ts) judges it.
 */
export function listUserTokenRows(db: Queryable, userId: string): Promise<UserTokenRow[]> {
  return db.query<UserTokenRow>(
    `SELECT ${COLUMNS} FROM api_tokens
      WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at, id`,
    [userId],
  );
}

/** The live credential stored under this keyed digest (a session cookie's row, to sign it out or read its method). */
export async function findCredentialRow(
  db: Queryable,
  keyedDigest: string,
): Promise<(UserTokenRow & { user_id: string }) | undefined> {
  const rows = await db.query<UserTokenRow & { user_id: string }>(
    `SELECT ${COLUMNS}, user_id FROM api_tokens
      WHERE token_hash = $1 AND NOT legacy_sha256 AND (expires_at IS NULL OR expires_at > now())`,
    [keyedDigest],
  );
  return rows[0];
}

/**
 * Deletes one of the user's tokens (as `folio token revoke` does, but only
 * the owner's); whether it was theirs (another user's token is never touched). Through the caching database the write
 * invalidates the cached token lookup at once, and the socket access sweep
 * closes the connections opened with it.
 */
export async function deleteUserToken(db: Queryable, userId: string, tokenId: string): Promise<boolean> {
  const deleted = await db.query('DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING id', [
    tokenId,
    userId,
  ]);
  return deleted.length > 0;
}

/** Deletes the sessions and device tokens that expired before `now` (a periodic job); how many. */
export async function purgeExpiredTokenRows(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM api_tokens WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING id', [
    now,
  ]);
  return rows.length;
}
