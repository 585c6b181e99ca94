import type { Queryable } from './db';

/** A user row as identity reads it. */
export interface UserRow {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  instance_admin: boolean;
}

/** The user row of an API token, with the token row's id and whether it holds a legacy (plain SHA-256) digest. */
export interface TokenUserRow extends UserRow {
  token_id: string;
  token_hash: string;
  legacy_sha256: boolean;
}

/**
 * The token rows (with their user) whose stored digest is one of `digests`:
 * the keyed digest of a token, and its plain SHA-256 for rows written before
 * digests were keyed. The caller checks which kind of row matched. An expired
 * session or device token is no row at all.
 */
export async function findTokenUsers(db: Queryable, digests: readonly string[]): Promise<TokenUserRow[]> {
  return db.query<TokenUserRow>(
    `SELECT u.id, u.display_name, u.email, u.photo_url, u.instance_admin, t.id AS token_id, t.token_hash, t.legacy_sha256
       FROM api_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ANY($1::text[]) AND (t.expires_at IS NULL OR t.expires_at > now())`,
    [digests],
  );
}

/**
 * Replaces a legacy token row's plain SHA-256 digest with its keyed digest
 * (once: a second process doing the same finds the row no longer legacy).
 */
export async function rehashLegacyToken(db: Queryable, tokenId: string, keyedDigest: string): Promise<void> {
  await db.query(
    `UPDATE api_tokens SET token_hash = $2, legacy_sha256 = false
      WHERE id = $1 AND legacy_sha256 AND NOT EXISTS (SELECT 1 FROM api_tokens WHERE token_hash = $2)`,
    [tokenId, keyedDigest],
  );
}

/** Inserts a user row. */
export async function insertUser(
  db: Queryable,
  user: { id: string; displayName: string; email: string | null; instanceAdmin: boolean },
): Promise<void> {
  await db.query('INSERT INTO users (id, display_name, email, instance_admin) VALUES ($1, $2, $3, $4)', [
    user.id,
    user.displayName,
    user.email,
    user.instanceAdmin,
  ]);
}

/** What kind of credential a token row is (migration 0014): a script's token, a web session, a desktop device. */
export type TokenKind = 'api' | 'session' | 'device';

/** A token row to insert; kind, expiry, sign-in method and user agent default to a plain API token's. */
export interface NewTokenRow {
  id: string;
  userId: string;
  tokenHash: string;
  label: string;
  kind?: TokenKind;
  expiresAt?: Date | null;
  signInMethod?: string | null;
  userAgent?: string | null;
}

/**
 * Inserts an API token row (only the keyed digest of the token is stored);
 * false when a row with that digest exists already.
 */
export async function insertToken(db: Queryable, token: NewTokenRow): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO api_tokens (id, user_id, token_hash, label, kind, expires_at, sign_in_method, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (token_hash) DO NOTHING RETURNING id`,
    [
      token.id,
      token.userId,
      token.tokenHash,
      token.label,
      token.kind ?? 'api',
      token.expiresAt ?? null,
      token.signInMethod ?? null,
      token.userAgent ?? null,
    ],
  );
  return rows.length > 0;
}

/** The user with this email (stored lower-case), if any. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    'SELECT id, display_name, email, photo_url, instance_admin FROM users WHERE email = $1',
    [email.toLowerCase()],
  );
  return rows[0];
}

/** A user's token rows with a given label (digest included, to compare with a known token). */
export function labelledTokens(
  db: Queryable,
  userId: string,
  label: string,
): Promise<{ id: string; token_hash: string; legacy_sha256: boolean }[]> {
  return db.query('SELECT id, token_hash, legacy_sha256 FROM api_tokens WHERE user_id = $1 AND label = $2', [
    userId,
    label,
  ]);
}

/** Deletes token rows by id. */
export async function deleteTokens(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.query('DELETE FROM api_tokens WHERE id = ANY($1::text[])', [ids]);
}

/** The first instance admin (the one the server bootstraps), if any. */
export async function firstInstanceAdmin(db: Queryable): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE instance_admin ORDER BY created_at LIMIT 1');
  return rows[0]?.id;
}

/**
 * The user `userId` as `viewerId` may look them up (`GET /users/{userId}`):
 * themself, or someone who shares an organization with them where the viewer
 * is an active member. Nobody else learns that the account exists.
 */
export async function findUserVisibleTo(
  db: Queryable,
  viewerId: string,
  userId: string,
): Promise<Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'> | undefined> {
  const rows = await db.query<Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>>(
    `SELECT u.id, u.display_name, u.email, u.photo_url FROM users u
      WHERE u.id = $2 AND ($1 = $2 OR EXISTS (
        SELECT 1 FROM members mine JOIN members theirs ON theirs.organization_id = mine.organization_id
         WHERE mine.user_id = $1 AND NOT mine.disabled AND theirs.user_id = $2))`,
    [viewerId, userId],
  );
  return rows[0];
}

/**
 * The organizations where `userId` may sign in only through SSO: the
 * organization enforces SSO (`sso`), the member is flagged `sso`, and the
 * organization has verified the domain of the user's email address. Without
 * that proof an organization could lock anyone it made a member out of every
 * other way of signing in, instance-wide.
 */
export async function ssoOnlyOrganizationIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT o.id FROM members m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
       JOIN domain_claims c ON c.organization_id = o.id AND c.verified_at IS NOT NULL
        AND c.domain = lower(substring(u.email from '@([^@]*)$'))
      WHERE m.user_id = $1 AND m.sso AND o.sso AND NOT m.disabled`,
    [userId],
  );
  return rows.map((r) => r.id);
}
