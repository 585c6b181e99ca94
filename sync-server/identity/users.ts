import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../store/db';
import { newApiToken, newId } from '../http/ids';
import { deleteTokens, firstInstanceAdmin, insertToken, insertUser, labelledTokens } from '../store/users';
import { rowHoldsToken, tokenDigests } from './token-digest';

/** The label of the admin's token that FOLIO_ADMIN_TOKEN sets (reserved: the server replaces it at each start). */
export const ADMIN_TOKEN_LABEL = 'FOLIO_ADMIN_TOKEN';

export interface NewUser {
  displayName: string;
  email?: string | null;
  instanceAdmin?: boolean;
}

/** Creates a user and returns its id. */
export async function createUser(db: Queryable, user: NewUser): Promise<string> {
  const id = newId();
  await insertUser(db, {
    id,
    displayName: user.displayName,
    email: user.email?.toLowerCase() ?? null,
    instanceAdmin: user.instanceAdmin ?? false,
  });
  return id;
}

/** Issues an API token for a user. The plain token is returned once and only its keyed digest is stored. */
export async function issueToken(
  db: Queryable,
  userId: string,
  label: string,
  token: string = newApiToken(),
): Promise<string> {
  const { keyed } = await tokenDigests(db, token);
  if (!(await insertToken(db, { id: newId(), userId, tokenHash: keyed, label })))
    throw new Error('This token is already in use');
  return token;
}

/**
 * Makes `token` the admin's FOLIO_ADMIN_TOKEN token, and that one only: a
 * previous value's token is deleted, so changing the setting revokes the old
 * value (and removing the setting, `token` undefined, revokes it too).
 */
async function syncAdminToken(db: Queryable, userId: string, token: string | undefined): Promise<void> {
  const rows = await labelledTokens(db, userId, ADMIN_TOKEN_LABEL);
  const digests = token === undefined ? undefined : await tokenDigests(db, token);
  const current = digests && rows.find((r) => rowHoldsToken(r, digests));
  await deleteTokens(
    db,
    rows.filter((r) => r !== current).map((r) => r.id),
  );
  // A legacy row of this value is kept: the first request with it rewrites its digest.
  if (!digests || current) return;
  // Another process starting with the same setting may have inserted it first; any other holder is a conflict.
  if (!(await insertToken(db, { id: newId(), userId, tokenHash: digests.keyed, label: ADMIN_TOKEN_LABEL }))) {
    const again = await labelledTokens(db, userId, ADMIN_TOKEN_LABEL);
    if (!again.some((r) => rowHoldsToken(r, digests)))
      throw new Error('FOLIO_ADMIN_TOKEN is already the API token of another user; choose another value');
  }
}

export interface AdminBootstrap {
  userId: string;
  /** The plain token, when this start created it (or it came from FOLIO_ADMIN_TOKEN). */
  token?: string;
  /** Where a generated token was written. */
  tokenFile?: string;
  created: boolean;
}

/**
 * Makes sure an instance-admin user exists and can authenticate:
 * - with FOLIO_ADMIN_TOKEN, that exact value is a token of the admin, labelled
 *   FOLIO_ADMIN_TOKEN; a previous value's token is deleted (without the
 *   setting, so is the token it used to set);
 * - otherwise the first start generates a token, writes it to
 *   `<dataDir>/admin-token` (mode 0600) and returns it for printing once.
 */
export async function bootstrapAdmin(
  db: Queryable,
  dataDir: string,
  fixedToken: string | undefined,
): Promise<AdminBootstrap> {
  let userId = await firstInstanceAdmin(db);
  const created = !userId;
  if (!userId)
    userId = await createUser(db, { displayName: 'Administrator', email: 'admin@localhost', instanceAdmin: true });
  await syncAdminToken(db, userId, fixedToken);
  if (fixedToken) return { userId, token: fixedToken, created };
  if (!created) return { userId, created };
  const token = await issueToken(db, userId, 'bootstrap');
  await mkdir(dataDir, { recursive: true });
  const tokenFile = join(dataDir, 'admin-token');
  await writeFile(tokenFile, token + '\n', { mode: 0o600 });
  await chmod(tokenFile, 0o600);
  return { userId, token, tokenFile, created };
}
