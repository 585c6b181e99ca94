import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { principalForToken, type Principal } from '../../identity/principal';
import { sessionTokenFromCookies, type SignInMethod } from '../../identity/sessions';
import { tokenDigests } from '../../identity/token-digest';
import { findCredentialRow } from '../../store/user-tokens';
import type { TokenKind } from '../../store/users';

/** The signed-in browser of a request to /auth/…: who, and which session row. */
export interface BrowserSession {
  principal: Principal;
  /** The session's row in `api_tokens` (what sign-out deletes). */
  tokenId: string;
  /** 'session' for a sign-in's cookie; an API token set as the cookie by hand is 'api'. */
  kind: TokenKind;
  /** How the person signed in to make this session (an API token set as the cookie counts as 'token'). */
  method: SignInMethod;
}

const METHODS: ReadonlySet<string> = new Set<SignInMethod>(['saml', 'oidc', 'email', 'token']);

/**
 * Resolves the session cookie of a request outside /v1 (the auth hook covers
 * /v1 only): undefined when there is none, or it is unknown, expired or
 * revoked. It says nothing of where the request came from: a route that
 * changes something also checks `isSameOrigin`.
 */
export async function browserSession(ctx: AppContext, request: FastifyRequest): Promise<BrowserSession | undefined> {
  const token = sessionTokenFromCookies(request.headers.cookie);
  if (!token) return undefined;
  const principal = await principalForToken(ctx.db, token);
  if (!principal) return undefined;
  const row = await findCredentialRow(ctx.db, (await tokenDigests(ctx.db, token)).keyed);
  if (!row || row.user_id !== principal.userId) return undefined;
  const method = row.sign_in_method && METHODS.has(row.sign_in_method) ? row.sign_in_method : 'token';
  return { principal, tokenId: row.id, kind: row.kind, method: method as SignInMethod };
}
