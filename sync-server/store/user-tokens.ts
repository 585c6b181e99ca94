import type { Queryable } from './db';

/** One API token of a user, without its digest. */
export interface UserTokenRow {
  id: string;
  label: string;
  created_at: Date;
  last_used_at: Date | null;
  token_hash: string;
  legacy_sha256: boolean;
}

/** The user's tokens, oldest first (the digest is only compared with the caller's own, never shown). */
export function listUserTokenRows(db: Queryable, userId: string): Promise<UserTokenRow[]> {
  return db.query<UserTokenRow>(
    'SELECT id, label, created_at, last_used_at, token_hash, legacy_sha256 FROM api_tokens WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
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
