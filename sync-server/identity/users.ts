import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../store/db';
import { hashToken, newApiToken, newId } from '../http/ids';
import { firstInstanceAdmin, insertToken, insertUser, tokenExists } from '../store/users';

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

/** Issues an API token for a user. The plain token is returned once and only its hash is stored. */
export async function issueToken(
  db: Queryable,
  userId: string,
  label: string,
  token: string = newApiToken(),
): Promise<string> {
  await insertToken(db, { id: newId(), userId, tokenHash: hashToken(token), label });
  return token;
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
 * - with FOLIO_ADMIN_TOKEN, that exact value is (also) a token of the admin;
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
  if (fixedToken) {
    if (!(await tokenExists(db, hashToken(fixedToken)))) await issueToken(db, userId, 'FOLIO_ADMIN_TOKEN', fixedToken);
    return { userId, token: fixedToken, created };
  }
  if (!created) return { userId, created };
  const token = await issueToken(db, userId, 'bootstrap');
  await mkdir(dataDir, { recursive: true });
  const tokenFile = join(dataDir, 'admin-token');
  await writeFile(tokenFile, token + '\n', { mode: 0o600 });
  await chmod(tokenFile, 0o600);
  return { userId, token, tokenFile, created };
}
