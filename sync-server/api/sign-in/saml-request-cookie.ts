import { createHash } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import { serviceProviderUrls } from '../../identity/saml-urls';

/**
 * The cookie that binds a SAML sign-in to the browser that started it, as
 * OpenID Connect's state cookie does (oidc-routes.ts): the start adds (a
 * digest of) the AuthnRequest ID, and the ACS accepts a response only when its
 * InResponseTo is one of them. Without it, another site could make a victim's
 * browser post a response to a sign-in the attacker started, and the victim
 * would be signed in to the attacker's account (login CSRF).
 *
 * SameSite: the IdP answers with an HTTP-POST binding, a top-level POST from
 * the IdP's site to this one, i.e. cross-site: browsers send neither Strict
 * nor Lax cookies with it (OIDC's Lax cookie works because its callback is a
 * GET redirect). So on https the cookie is `SameSite=None; Secure`. On plain
 * http a browser drops `SameSite=None` without `Secure`, so the attribute is
 * left out: Firefox and Safari then send it anyway, and Chrome (Lax by
 * default) sends it on a cross-site POST within 2 minutes of the start, or
 * always when the IdP is on the same site (a local test IdP). Production
 * servers are https.
 *
 * Scoped to the provider's own path (`/auth/saml/<id>`: its start and ACS),
 * it holds the digests of the last few sign-ins started in this browser (two
 * tabs may both be signing in) for the life of a request.
 */
export const SAML_REQUEST_COOKIE = 'folio_saml_request';
/** Sign-ins remembered per browser and provider (the oldest is forgotten first). */
const MAX_PENDING = 4;
const DIGEST = /^[A-Za-z0-9_-]{22}$/;

/** The digest of a request ID kept in the cookie (the ID itself, which the IdP sees, is not). */
const digestOf = (requestId: string) => createHash('sha256').update(requestId).digest('base64url').slice(0, 22);

/** The digests this browser holds for the provider whose path the request is on. */
export function pendingSamlRequests(cookieHeader: string | undefined): string[] {
  const value = parseCookie(cookieHeader ?? '')[SAML_REQUEST_COOKIE] ?? '';
  return value.split('.').filter((d) => DIGEST.test(d));
}

/** Whether this browser started the sign-in `requestId` answers. */
export function startedInThisBrowser(pending: readonly string[], requestId: string): boolean {
  return pending.includes(digestOf(requestId));
}

/** The Set-Cookie of a start: the browser's pending sign-ins plus `requestId`. */
export function samlRequestCookie(
  root: string,
  providerId: string,
  pending: readonly string[],
  requestId: string,
  maxAgeS: number,
): string {
  const https = root.startsWith('https:');
  return stringifySetCookie({
    name: SAML_REQUEST_COOKIE,
    value: [...pending, digestOf(requestId)].slice(-MAX_PENDING).join('.'),
    httpOnly: true,
    ...(https ? { sameSite: 'none' as const, secure: true } : {}),
    // The provider's folder under the public URL (its start and its ACS are in it).
    path: new URL(serviceProviderUrls(root, providerId).startURL).pathname.replace(/\/start$/, ''),
    maxAge: maxAgeS,
  });
}
