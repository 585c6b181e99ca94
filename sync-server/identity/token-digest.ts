import { createHmac } from 'node:crypto';
import { hashToken } from '../http/ids';
import type { Queryable } from '../store/db';
import { installationSecret } from '../store/server-secrets';

/**
 * How API tokens are stored: HMAC-SHA256 under a per-installation key
 * (`server_secrets` 'token-digest'), never the token. Tokens we generate carry
 * 256 random bits, but FOLIO_ADMIN_TOKEN is chosen by an operator and may be
 * guessable: with a keyed digest, a leaked `api_tokens` table (a dump of it, a
 * replica, a log of a query) lets nobody test guesses offline or match the
 * digests against another installation's. Rows from before digests were keyed
 * hold a plain SHA-256 (`legacy_sha256`): they are still recognized, and
 * rewritten on first use.
 */

/** The token key of each database handle (it never changes once created, so it is loaded once). */
const keys = new WeakMap<Queryable, Promise<Buffer>>();

function tokenKey(db: Queryable): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = installationSecret(db, 'token-digest');
    // A failed load (database down) is retried by the next caller.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

/** The digests a token may be stored under: the keyed one, and the plain SHA-256 of legacy rows. */
export interface TokenDigests {
  keyed: string;
  legacy: string;
}

/** Both digests of `token` (the installation's key is loaded, or created, on first use). */
export async function tokenDigests(db: Queryable, token: string): Promise<TokenDigests> {
  const key = await tokenKey(db);
  return { keyed: createHmac('sha256', key).update(token).digest('hex'), legacy: hashToken(token) };
}

/** Whether a stored token row holds `token` (its keyed digest, or its plain SHA-256 when the row is legacy). */
export function rowHoldsToken(row: { token_hash: string; legacy_sha256: boolean }, digests: TokenDigests): boolean {
  return row.legacy_sha256 ? row.token_hash === digests.legacy : row.token_hash === digests.keyed;
}
