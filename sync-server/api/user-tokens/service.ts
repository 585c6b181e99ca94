import type { AppContext } from '../../context';
import { rowHoldsToken, tokenDigests } from '../../identity/token-digest';
import { deleteUserToken, listUserTokenRows, type UserTokenRow } from '../../store/user-tokens';

/** A credential row as the API shows it (never its digest). */
function presentToken(r: UserTokenRow, current: boolean) {
  return {
    object: 'api-token' as const,
    id: r.id,
    label: r.label,
    kind: r.kind,
    createdAt: r.created_at.toISOString(),
    ...(r.last_used_at ? { lastUsedAt: r.last_used_at.toISOString() } : {}),
    ...(r.expires_at ? { expiresAt: r.expires_at.toISOString() } : {}),
    ...(r.sign_in_method ? { signInMethod: r.sign_in_method } : {}),
    ...(r.user_agent ? { userAgent: r.user_agent } : {}),
    current,
  };
}

/**
 * listUserTokens (Folio extension): the caller's tokens, sessions and device
 * tokens, marking the one this request uses (`credential`: its bearer token
 * or its session cookie).
 */
export async function listUserTokens(ctx: AppContext, userId: string, credential: string | undefined) {
  const rows = await listUserTokenRows(ctx.db, userId);
  const digests = credential ? await tokenDigests(ctx.db, credential) : undefined;
  const items = rows.map((r) => presentToken(r, !!digests && rowHoldsToken(r, digests)));
  return { items, count: items.length };
}

/**
 * revokeUserToken (Folio extension): deletes the token, session or device
 * token if it is the caller's own. Any other id (unknown, already revoked,
 * another user's) is left alone and answered like every DELETE of what is not
 * there (204), so the answer never tells whether someone else's token exists.
 */
export async function revokeUserToken(ctx: AppContext, userId: string, tokenId: string): Promise<void> {
  await deleteUserToken(ctx.db, userId, tokenId);
}
