import { purgeExpiredIntegrationTokens } from '../store/integration-tokens';
import { purgeExpiredAssertions } from '../store/saml-providers';
import { purgeExpiredSignInRequests } from '../store/sign-in-requests';
import { purgeExpiredTokenRows } from '../store/user-tokens';
import type { JobDeps } from './purge-deleted-spaces';

/**
 * Deletes what sign-in leaves behind once it expired (by the injected clock):
 * sessions and device tokens past their expiry (they stopped authenticating
 * then; this only tidies the table and the owner's list), pending sign-in
 * steps nobody finished, and the ids of SAML assertions past their validity
 * (a replay of one is refused by its expiry by then), and integration tokens
 * past their hour. Idempotent. Returns how many rows went.
 */
export async function purgeExpiredSignIns(ctx: Pick<JobDeps, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now();
  return (
    (await purgeExpiredTokenRows(ctx.db, now)) +
    (await purgeExpiredSignInRequests(ctx.db, now)) +
    (await purgeExpiredAssertions(ctx.db, now)) +
    (await purgeExpiredIntegrationTokens(ctx.db, now))
  );
}
