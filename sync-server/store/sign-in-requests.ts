import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac } from 'node:crypto';
import type { Db, Queryable } from './db';
import { installationSecret } from './server-secrets';

/** What a pending sign-in step is (each flow reads only its own kind). */
export type SignInRequestKind = 'saml' | 'oidc' | 'email-link' | 'device-code';

/**
 * The client a sign-in step is saved for: its address as the rate limits key
 * it (http/rate-limiter.ts addressKey: IPv6 by /64) and how many steps one
 * address may have pending at once (0: no cap).
 */
export interface SignInClient {
  address: string;
  cap: number;
}

/**
 * The client of the request being served, set around each /auth handler by
 * the rate-limit hooks (http/rate-limit.ts). Every flow saves its steps
 * through saveSignInRequest, several of them far from the request (SAML's
 * start is in identity/saml.ts): they all get the cap without passing the
 * address down.
 */
const currentClient = new AsyncLocalStorage<SignInClient>();

/** Runs `fn` (and everything it awaits) as serving `client`: the steps it saves count against that address. */
export function runAsSignInClient<T>(client: SignInClient, fn: () => T): T {
  return currentClient.run(client, fn);
}

/** A sign-in refused because its address already has `cap` sign-ins in progress (429). */
export class PendingSignInLimitError extends Error {
  /** The HTTP status the error handler answers with. */
  readonly statusCode = 429;
  constructor(
    /** Seconds until the oldest pending step of that address expires (the `Retry-After`). */
    readonly retryAfterS: number,
  ) {
    super(`Too many sign-ins in progress from this address; finish one, or retry in ${retryAfterS} s`);
    this.name = 'PendingSignInLimitError';
  }
}

/** The digest key of each database handle (it never changes once created, so it is loaded once). */
const keys = new WeakMap<Queryable, Promise<Buffer>>();

/**
 * The stored form of a client address: HMAC-SHA256 under an installation
 * secret. A plain hash of an IPv4 address is reversed by hashing all 2^32 of
 * them; a leaked table must not list who was signing in from where.
 */
async function clientDigest(db: Queryable, address: string): Promise<string> {
  let key = keys.get(db);
  if (!key) {
    key = installationSecret(db, 'sign-in-client-digest');
    // A failed load (database down) is retried by the next caller.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return createHmac('sha256', await key)
    .update(address)
    .digest('hex');
}

const isDb = (db: Queryable): db is Db => typeof (db as Partial<Db>).transaction === 'function';

/** How many steps `client` has pending at `now`, and when the oldest of them expires. */
async function pendingOf(q: Queryable, client: string, now: Date): Promise<{ n: number; first: Date | null }> {
  const rows = await q.query<{ n: number; first: Date | null }>(
    'SELECT count(*)::int AS n, min(expires_at) AS first FROM sign_in_requests WHERE client = $1 AND expires_at > $2',
    [client, now],
  );
  return rows[0] ?? { n: 0, first: null };
}

/** Seconds until the first of a full address's steps expires (at least 1). */
const waitFor = (first: Date | null, now: Date) =>
  Math.max(1, Math.ceil(((first?.getTime() ?? now.getTime()) - now.getTime()) / 1000));

/**
 * Records a sign-in step in progress (`id` is a random id, or the digest of a
 * secret the browser holds, never the secret itself), valid until `expiresAt`.
 * Saved for `client` (by default the client of the /auth request being
 * served, see runAsSignInClient; null: none): its address's digest is kept
 * with the row, and when the address already has `cap` steps pending this
 * throws PendingSignInLimitError and saves nothing. Counting and inserting
 * hold a transaction lock on that address, so parallel starts (any process)
 * cannot all slip under the cap.
 */
export async function saveSignInRequest(
  db: Queryable,
  request: {
    id: string;
    kind: SignInRequestKind;
    data: object;
    expiresAt: Date;
    client?: SignInClient | null;
    /** The server's clock (which steps are still pending); the wall clock by default. */
    now?: Date;
  },
): Promise<void> {
  const client = request.client === undefined ? currentClient.getStore() : (request.client ?? undefined);
  const digest = client ? await clientDigest(db, client.address) : null;
  const insert = (q: Queryable) =>
    q.query('INSERT INTO sign_in_requests (id, kind, data, expires_at, client) VALUES ($1, $2, $3::jsonb, $4, $5)', [
      request.id,
      request.kind,
      JSON.stringify(request.data),
      request.expiresAt,
      digest,
    ]);
  if (!client || !digest || client.cap <= 0) {
    await insert(db);
    return;
  }
  const now = request.now ?? new Date();
  const capped = async (q: Queryable) => {
    await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`sign-in-client:${digest}`]);
    const { n, first } = await pendingOf(q, digest, now);
    if (n >= client.cap) throw new PendingSignInLimitError(waitFor(first, now));
    await insert(q);
  };
  // A Queryable without transactions is already one (the caller's): the lock lasts until it ends.
  if (isDb(db)) await db.transaction(capped);
  else await capped(db);
}

/**
 * Seconds the current client (runAsSignInClient) must wait before it may
 * start another sign-in, 0 when it may now. For a flow that must refuse
 * before it knows whether it will save a step at all (an email link is saved
 * only for addresses that may get one: answering 429 only then would tell who
 * has an account). saveSignInRequest still enforces the cap.
 */
export async function pendingSignInWait(db: Queryable, now: Date): Promise<number> {
  const client = currentClient.getStore();
  if (!client || client.cap <= 0) return 0;
  const { n, first } = await pendingOf(db, await clientDigest(db, client.address), now);
  return n >= client.cap ? waitFor(first, now) : 0;
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
