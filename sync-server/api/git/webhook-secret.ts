import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import type { GitSyncRow } from '../../store/git-sync';

/**
 * The secret of a space's webhook URL (`/v1/git/hooks/<spaceId>/<secret>`): whoever holds the URL
 * may ask for an import, nothing more. It is sealed with the server's key, bound to the space (a
 * value copied to another space's row does not open), so the space's admins can read the URL
 * again; a call compares it in constant time.
 */

/** The context a webhook secret is sealed with. */
const secretContext = (spaceId: string) => `git-webhook:${spaceId}`;

/** A new secret: 32 random bytes, URL-safe (43 characters). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sealWebhookSecret(ctx: AppContext, spaceId: string, secret: string): string {
  return ctx.secrets.seal(secret, secretContext(spaceId));
}

/**
 * The space's secret in clear, or undefined when it has none or it cannot be opened (sealed with a
 * key this server no longer has: the admins rotate it to get a working URL again).
 */
export function openWebhookSecret(ctx: AppContext, row: GitSyncRow): string | undefined {
  if (!row.webhook_secret) return undefined;
  try {
    return ctx.secrets.open(row.webhook_secret, secretContext(row.space_id));
  } catch (err) {
    // The message says why (another key, altered); it never holds the secret.
    ctx.log.warn({ spaceId: row.space_id, reason: (err as Error).message }, 'git webhook secret cannot be opened');
    return undefined;
  }
}

/** Whether `given` is the space's secret, compared in constant time (hashes: equal lengths whatever is given). */
export function webhookSecretMatches(ctx: AppContext, row: GitSyncRow, given: string): boolean {
  const expected = openWebhookSecret(ctx, row);
  if (expected === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** The URL a Git host is given: the API's public address, so it works behind a proxy (FOLIO_PUBLIC_URL). */
export function webhookUrl(ctx: AppContext, spaceId: string, secret: string): string {
  return ctx.urls.api(`/git/hooks/${encodeURIComponent(spaceId)}/${secret}`);
}
