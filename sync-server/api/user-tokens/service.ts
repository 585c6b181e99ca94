import type { AppContext } from '../../context';
import { rowHoldsToken, tokenDigests } from '../../identity/token-digest';
import { deleteUserToken, listUserTokenRows } from '../../store/user-tokens';

/** listUserTokens (Folio extension): the caller's tokens, marking the one this request uses. */
export async function listUserTokens(ctx: AppContext, userId: string, bearer: string | undefined) {
  const rows = await listUserTokenRows(ctx.db, userId);
  const digests = bearer ? await tokenDigests(ctx.db, bearer) : undefined;
  const items = rows.map((r) => ({
    object: 'api-token' as const,
    id: r.id,
    label: r.label,
    createdAt: r.created_at.toISOString(),
    ...(r.last_used_at ? { lastUsedAt: r.last_used_at.toISOString() } : {}),
    current: !!digests && rowHoldsToken(r, digests),
  }));
  return { items, count: items.length };
}

/**
 * revokeUserToken (Folio extension): deletes the token if it is the caller's
 * own. Any other id (unknown, already revoked, another user's) is left alone
 * and answered like every DELETE of what is not there (204), so the answer
 * never tells whether someone else's token exists.
 */
export async function revokeUserToken(ctx: AppContext, userId: string, tokenId: string): Promise<void> {
  await deleteUserToken(ctx.db, userId, tokenId);
}
