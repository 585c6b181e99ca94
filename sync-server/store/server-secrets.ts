import { randomBytes } from 'node:crypto';
import type { Queryable } from './db';

/**
 * A secret generated once per installation and kept in `server_secrets`, so
 * every server process (and the admin CLI) sharing the database agrees on it:
 * the URL-signing key, the key of stored token digests. Created on first use;
 * `ON CONFLICT DO NOTHING` keeps the first value when two processes start at once.
 */
export async function installationSecret(db: Queryable, name: string): Promise<Buffer> {
  const fresh = randomBytes(32).toString('base64');
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    fresh,
  ]);
  const rows = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return Buffer.from(rows[0]!.value, 'base64');
}
