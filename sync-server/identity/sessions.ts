import { parseCookie, stringifySetCookie } from 'cookie';
import type { IncomingHttpHeaders } from 'node:http';
import { newApiToken, newId } from '../http/ids';
import type { Queryable } from '../store/db';
import { insertToken, type TokenKind } from '../store/users';
import { tokenDigests } from './token-digest';

/**
 * Sessions: what every sign-in (SAML, OpenID Connect, an email link, a pasted
 * token exchanged in the browser) ends in. A session is an `api_tokens` row of
 * kind 'session' with an expiry, whose secret lives only in an HttpOnly
 * cookie; a desktop app gets a row of kind 'device' and holds the secret
 * itself. Being token rows, both are resolved, cached, listed, revoked and
 * swept from open sockets exactly like API tokens.
 */

/** The web app's session cookie. `__Host-` would be better, but it requires Secure, which plain-http installs lack. */
export const SESSION_COOKIE = 'folio_session';

/** How long a web session lasts from sign-in. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;

/** How long a desktop device token lasts (it is revocable at any time from Settings). */
export const DEVICE_TOKEN_TTL_MS = 365 * 24 * 3600_000;

/** How the person proved who they are. */
export type SignInMethod = 'saml' | 'oidc' | 'email' | 'token';

/** A credential just issued: its secret is here once, and only its keyed digest is stored. */
export interface IssuedCredential {
  id: string;
  token: string;
  expiresAt: Date;
}

/** Issues a session (web cookie) or device (desktop app) credential for `userId`. */
export async function issueCredential(
  db: Queryable,
  userId: string,
  options: {
    kind: Exclude<TokenKind, 'api'>;
    method: SignInMethod;
    now: Date;
    label?: string;
    userAgent?: string | undefined;
    ttlMs?: number;
  },
): Promise<IssuedCredential> {
  const token = newApiToken();
  const id = newId();
  const ttl = options.ttlMs ?? (options.kind === 'session' ? SESSION_TTL_MS : DEVICE_TOKEN_TTL_MS);
  const expiresAt = new Date(options.now.getTime() + ttl);
  const { keyed } = await tokenDigests(db, token);
  await insertToken(db, {
    id,
    userId,
    tokenHash: keyed,
    label: options.label ?? (options.kind === 'session' ? 'Web session' : 'Desktop app'),
    kind: options.kind,
    expiresAt,
    signInMethod: options.method,
    userAgent: options.userAgent?.slice(0, 300) ?? null,
  });
  return { id, token, expiresAt };
}

/** The `Set-Cookie` value that hands a session to the browser: HttpOnly, SameSite=Lax, Secure on https. */
export function sessionCookie(credential: IssuedCredential, publicUrl: string): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: credential.token,
    httpOnly: true,
    sameSite: 'lax',
    secure: publicUrl.startsWith('https:'),
    path: '/',
    expires: credential.expiresAt,
  });
}

/** The `Set-Cookie` value that removes the session cookie (sign-out). */
export function clearedSessionCookie(publicUrl: string): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    httpOnly: true,
    sameSite: 'lax',
    secure: publicUrl.startsWith('https:'),
    path: '/',
    expires: new Date(0),
  });
}

/** The session token a request carries in its cookie, if any. */
export function sessionTokenFromCookies(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parseCookie(cookieHeader)[SESSION_COOKIE];
  return value || undefined;
}

/**
 * Whether a cookie-authenticated request comes from this server's own pages
 * (CSRF defence, on top of SameSite=Lax): the browser's `Sec-Fetch-Site`
 * says same-origin, or its `Origin` is this server's. A request with neither
 * header is not a browser's cross-site request (browsers send `Origin` on
 * every cross-origin request and on same-origin non-GET ones), so it passes
 * only when `allowMissing` (safe methods).
 */
export function isSameOrigin(headers: IncomingHttpHeaders, publicUrl: string, allowMissing: boolean): boolean {
  const site = headers['sec-fetch-site'];
  if (site === 'same-origin') return true;
  if (typeof site === 'string' && site !== 'none') return false;
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return allowMissing && origin === undefined;
  const own = new URL(publicUrl).origin;
  // The Host the browser used also counts: a server reached as 127.0.0.1 and as localhost is one server.
  const host = headers.host;
  return origin === own || (typeof host === 'string' && (origin === `http://${host}` || origin === `https://${host}`));
}
