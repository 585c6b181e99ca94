import type { Queryable } from './db';

/** What a pending sign-in step is (each flow reads only its own kind). */
export type SignInRequestKind = 'saml' | 'oidc' | 'email-link' | 'device-code';

/**
 * Records a sign-in step in progress (`id` is a random id, or the digest of a
 * secret the browser holds, never the secret itself), valid until `expiresAt`.
 */
export async function saveSignInRequest(
  db: Queryable,
  request: { id: string; kind: SignInRequestKind; data: object; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO sign_in_requests (id, kind, data, expires_at) VALUES ($1, $2, $3::jsonb, $4)', [
    request.id,
    request.kind,
    JSON.stringify(request.data),
    request.expiresAt,
  ]);
}

/**
 * Takes a pending sign-in step: deletes it and returns its data, once. A
 * second take (a replayed link, a second tab, another process) finds nothing;
 * an expired or other-kind row is deleted or left alone and gives nothing.
 */
export async function takeSignInRequest<T extends object>(
  db: Queryable,
  id: string,
  kind: SignInRequestKind,
  now: Date,
): Promise<T | undefined> {
  const rows = await db.query<{ data: T; expires_at: Date }>(
    'DELETE FROM sign_in_requests WHERE id = $1 AND kind = $2 RETURNING data, expires_at',
    [id, kind],
  );
  const row = rows[0];
  return row && row.expires_at.getTime() > now.getTime() ? row.data : undefined;
}

/** Deletes the sign-in steps that expired before `now` (a periodic job); how many. */
export async function purgeExpiredSignInRequests(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM sign_in_requests WHERE expires_at <= $1 RETURNING id', [now]);
  return rows.length;
}

/**
 * Reads a pending sign-in step without using it up (a page that shows what a
 * link will do before the person confirms); undefined when unknown or expired.
 */
export async function peekSignInRequest<T extends object>(
  db: Queryable,
  id: string,
  kind: SignInRequestKind,
  now: Date,
): Promise<T | undefined> {
  const rows = await db.query<{ data: T }>(
    'SELECT data FROM sign_in_requests WHERE id = $1 AND kind = $2 AND expires_at > $3',
    [id, kind, now],
  );
  return rows[0]?.data;
}
