import { timingSafeEqual } from 'node:crypto';
import type { SiteRow } from '../store/sites';
import { unsignedClaims } from '../sites/adaptive-schema';

/**
 * Who may see a published site, by its visibility:
 * - `public`, `unlisted`: everyone;
 * - `share-link`: whoever brings the site's share key, as `?share=<key>` (then
 *   kept in a cookie so navigation works) or that cookie;
 * - `visitor-auth`: whoever brings a visitor JWT signed (HS256) with the
 *   site's key, as `?jwt_token=<jwt>` (GitBook's parameter; then kept in a
 *   cookie) or that cookie. Expired, forged, `alg: none` or other-algorithm
 *   tokens are refused (jose with an HS256-only allow list), and so are
 *   tokens without `exp` or valid for more than a day (verifyVisitorToken).
 * Refusals: nothing presented = 401, something wrong presented = 403.
 * The token's claims (plus unsigned `visitor.<name>` URL claims) are what
 * adaptive-content conditions see.
 */

export interface VisitorInput {
  query: Record<string, unknown>;
  cookies: Record<string, string>;
}

/** A visitor admitted (with their claims and the cookies to set), or refused (with the status and why). */
export type VisitorOutcome =
  | { ok: true; claims: Record<string, unknown>; setCookies: { name: string; value: string; maxAge?: number }[] }
  | { ok: false; status: 401 | 403; message: string };

/** The cookies that keep a share key and a visitor token while a visitor navigates one site. */
export const shareCookie = (siteId: string) => `folio_share_${siteId}`;
export const visitorCookie = (siteId: string) => `folio_visitor_${siteId}`;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The longest a visitor token may be valid: its `exp` at most this far after
 * its `iat` and after now. A token without `exp` would open the site for good
 * (a leaked link, a browser history, a proxy log would keep working forever),
 * and so would one that expires in ten years; visitor tokens are meant to be
 * minted per visit by the docs owner's sign-in, as GitBook's are. One day
 * leaves room for any sign-in's session; members' claims last an hour
 * (identity/visitor-claims.ts).
 */
export const MAX_VISITOR_TOKEN_LIFETIME_S = 24 * 3600;

/** The refusal of a token this key did not sign (or that is not a JWT at all). */
const NOT_VALID = 'Your visitor token is not valid for this site';

/**
 * Verifies a visitor token at `nowSeconds` (the server's clock): its claims,
 * or why it is refused. HS256 only; `exp` required and at most
 * MAX_VISITOR_TOKEN_LIFETIME_S after both `iat` (when given) and now.
 */
export async function verifyVisitorToken(
  token: string,
  key: string,
  nowSeconds: number,
): Promise<{ claims: Record<string, unknown>; exp: number } | { error: string }> {
  // jose loads on the first token (~30 ms of boot otherwise): most sites never see one.
  const { errors, jwtVerify } = await import('jose');
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(key), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      currentDate: new Date(nowSeconds * 1000),
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { error: 'Your visitor token has expired' };
    if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'exp')
      return { error: 'Your visitor token has no valid expiry time (exp): it must expire within a day' };
    return { error: NOT_VALID };
  }
  const exp = payload.exp!;
  // A future `iat` must not stretch the lifetime: it counts from whichever is earlier, iat or now.
  const from = typeof payload.iat === 'number' ? Math.min(payload.iat, nowSeconds) : nowSeconds;
  if (exp - from > MAX_VISITOR_TOKEN_LIFETIME_S)
    return { error: 'Your visitor token is valid for too long: it must expire within a day of being issued' };
  return { claims: { ...payload }, exp };
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Decides whether this visitor may see `site`, and with which claims. A
 * visitor token may be signed with the site's key or, when given,
 * `organizationKey` (asked only then): the visitor claims members of the site's organization
 * get from `POST /v1/orgs/{id}/ping` (identity/visitor-claims.ts).
 */
export async function admitVisitor(
  site: SiteRow,
  input: VisitorInput,
  nowSeconds: number,
  organizationKey?: () => Promise<string>,
): Promise<VisitorOutcome> {
  const setCookies: { name: string; value: string; maxAge?: number }[] = [];
  if (site.visibility === 'share-link') {
    const fromQuery = text(input.query.share);
    const key = fromQuery ?? input.cookies[shareCookie(site.id)];
    if (!key) return { ok: false, status: 401, message: 'This site is shared by link: open it with its share link.' };
    if (!sameSecret(key, site.share_key))
      return { ok: false, status: 403, message: 'This share link is not valid (it may have been replaced).' };
    if (fromQuery) setCookies.push({ name: shareCookie(site.id), value: key });
  }
  let claims: Record<string, unknown> = {};
  const fromQuery = text(input.query.jwt_token);
  const token = fromQuery ?? input.cookies[visitorCookie(site.id)];
  if (site.visibility === 'visitor-auth' || (site.adaptive_enabled && token)) {
    if (!token)
      return { ok: false, status: 401, message: 'This site needs you to sign in: open it with a visitor token.' };
    let verified = await verifyVisitorToken(token, site.visitor_key, nowSeconds);
    if ('error' in verified && organizationKey) {
      const byOrganization = await verifyVisitorToken(token, await organizationKey(), nowSeconds);
      // A member token signed with this key but expired (or without exp, or too long) says so; a token
      // this key did not sign either keeps the site key's answer.
      if (!('error' in byOrganization) || byOrganization.error !== NOT_VALID) verified = byOrganization;
    }
    if ('error' in verified) {
      // On open sites a bad token only means "no claims"; on visitor-auth sites it is a refusal.
      if (site.visibility === 'visitor-auth') return { ok: false, status: 403, message: verified.error };
    } else {
      claims = verified.claims;
      if (fromQuery)
        setCookies.push({
          name: visitorCookie(site.id),
          value: token,
          maxAge: Math.max(0, verified.exp - nowSeconds),
        });
    }
  }
  if (site.adaptive_enabled) {
    const unsigned = unsignedClaims(site.adaptive_schema, input.query);
    const signedUnsigned = typeof claims.unsigned === 'object' && claims.unsigned !== null ? claims.unsigned : {};
    claims = { ...claims, unsigned: { ...unsigned, ...signedUnsigned } };
  }
  return { ok: true, claims, setCookies };
}

/** Parses a Cookie header into name -> value (first occurrence wins, values URI-decoded when possible). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (Object.hasOwn(out, name)) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}
