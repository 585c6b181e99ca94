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
 *   tokens are refused (jose with an HS256-only allow list).
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

/** Verifies a visitor token; its claims, or why it is refused. */
export async function verifyVisitorToken(
  token: string,
  key: string,
): Promise<{ claims: Record<string, unknown>; exp?: number } | { error: string }> {
  // jose loads on the first token (~30 ms of boot otherwise): most sites never see one.
  const { errors, jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    return { claims: { ...payload }, exp: payload.exp };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { error: 'Your visitor token has expired' };
    return { error: 'Your visitor token is not valid for this site' };
  }
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
    let verified = await verifyVisitorToken(token, site.visitor_key);
    if ('error' in verified && organizationKey) {
      const byOrganization = await verifyVisitorToken(token, await organizationKey());
      // An expired member token says so; any other failure keeps the site key's answer.
      if (!('error' in byOrganization) || /expired/.test(byOrganization.error)) verified = byOrganization;
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
          ...(verified.exp ? { maxAge: Math.max(0, verified.exp - nowSeconds) } : {}),
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
