import type { Queryable } from '../store/db';
import { cachedRead, peekCached } from '../store/read-cache';
import { findTokenUsers, rehashLegacyToken } from '../store/users';
import { findIntegrationToken } from '../store/integration-tokens';
import { installationBotId, integrationBotId } from './integration-tokens';
import { rowHoldsToken, tokenDigests } from './token-digest';

/** The authenticated caller of a request or a socket. */
export interface Principal {
  userId: string;
  displayName: string;
  email: string | null;
  photoUrl: string | null;
  instanceAdmin: boolean;
  /**
   * Set when the caller is an integration's token (no `installationId`) or an installation's:
   * `userId` is then that integration's or installation's bot (identity/integration-tokens.ts),
   * never a human. `scopes` are the integration's current manifest scopes; the route scope guard
   * (http/auth.ts) and the installation's actor (access/actor.ts) work from them.
   */
  integration?: IntegrationCaller;
}

/** Who an integration principal acts as, and until when its token authenticates. */
export interface IntegrationCaller {
  name: string;
  installationId?: string;
  scopes: readonly string[];
  /** Epoch milliseconds: the cached principal stops authenticating then, cache or not. */
  expiresAt: number;
}

/**
 * Resolves a bearer token to its user, or undefined when unknown. Cached for
 * a few seconds: a token revoked by the CLI (another process) stops working
 * within the cache TTL, one revoked through this server at once. A token
 * still stored under its legacy plain SHA-256 digest is rewritten with its
 * keyed digest on this first successful use.
 *
 * The cache is keyed by the token itself, in this process's memory only (it
 * is in every request's headers anyway): a known token costs one map lookup,
 * no hashing. Only a miss computes the keyed digest the database holds.
 */
export function principalForToken(db: Queryable, token: string): Promise<Principal | undefined> {
  return cachedRead(db, tokenKey(token), async () => {
    const digests = await tokenDigests(db, token);
    const rows = await findTokenUsers(db, [digests.keyed, digests.legacy]);
    // A keyed row wins over a legacy row of the same token (possible only if a token was issued twice).
    const u =
      rows.find((r) => !r.legacy_sha256 && rowHoldsToken(r, digests)) ?? rows.find((r) => rowHoldsToken(r, digests));
    if (u?.legacy_sha256) await rehashLegacyToken(db, u.token_id, digests.keyed);
    if (!u) return integrationPrincipal(db, digests.keyed);
    return (
      u && {
        userId: u.id,
        displayName: u.display_name,
        email: u.email,
        photoUrl: u.photo_url,
        instanceAdmin: u.instance_admin,
      }
    );
  });
}

/** The principal of an integration or installation token stored under `digest`, if it is live. */
async function integrationPrincipal(db: Queryable, digest: string): Promise<Principal | undefined> {
  const row = await findIntegrationToken(db, digest);
  if (!row) return undefined;
  const installationId = row.installation_id ?? undefined;
  return {
    userId: installationId ? installationBotId(installationId) : integrationBotId(row.integration_name),
    displayName: row.title,
    email: null,
    photoUrl: null,
    instanceAdmin: false,
    integration: {
      name: row.integration_name,
      ...(installationId ? { installationId } : {}),
      scopes: row.scopes,
      expiresAt: new Date(row.expires_at).getTime(),
    },
  };
}

const tokenKey = (token: string) => `token:${token}`;

/** The principal of a token this process knows, synchronously (undefined: not cached; then ask principalForToken). */
export function knownPrincipal(db: Queryable, token: string): Principal | undefined {
  return peekCached<Principal>(db, tokenKey(token));
}

/** Extracts the token from an `Authorization: Bearer …` header value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  // Every request to a protected route reads its token twice (rate limit, auth), and a client sends the same
  // header again and again: the last answer is kept.
  if (header === lastHeader) return lastToken;
  lastToken = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  lastHeader = header;
  return lastToken;
}
let lastHeader: string | undefined;
let lastToken: string | undefined;
