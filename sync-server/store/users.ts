import type { Queryable } from './db';

/** A user row as identity reads it. */
export interface UserRow {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  instance_admin: boolean;
}

/** The user an API token (by its SHA-256 digest) belongs to, or undefined. */
export async function findUserByTokenHash(db: Queryable, tokenHash: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `SELECT u.id, u.display_name, u.email, u.photo_url, u.instance_admin
       FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
    [tokenHash],
  );
  return rows[0];
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

/** Inserts an API token row (only the digest of the token is stored). */
export async function insertToken(
  db: Queryable,
  token: { id: string; userId: string; tokenHash: string; label: string },
): Promise<void> {
  await db.query('INSERT INTO api_tokens (id, user_id, token_hash, label) VALUES ($1, $2, $3, $4)', [
    token.id,
    token.userId,
    token.tokenHash,
    token.label,
  ]);
}

/** Whether a token with this digest exists. */
export async function tokenExists(db: Queryable, tokenHash: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM api_tokens WHERE token_hash = $1', [tokenHash])).length > 0;
}

/** The first instance admin (the one the server bootstraps), if any. */
export async function firstInstanceAdmin(db: Queryable): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE instance_admin ORDER BY created_at LIMIT 1');
  return rows[0]?.id;
}
