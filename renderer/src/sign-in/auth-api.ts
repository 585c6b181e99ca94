import { ApiError, OfflineError } from '../api/client';

/**
 * The server's sign-in routes outside /v1 (`/auth/…`): which methods it
 * offers, asking for an email link, and ending the browser's session.
 */

/** What `GET /auth/methods` answers: the sign-in methods this server has configured. */
export interface SignInMethods {
  sso: boolean;
  oidc: { label: string; startURL: string } | null;
  email: boolean;
  token: boolean;
}

/** Only tokens: what a server without the sign-in routes (an older Folio) offers. */
export const TOKEN_ONLY: SignInMethods = { sso: false, oidc: null, email: false, token: true };

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', ...init });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new OfflineError(err);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    throw new ApiError(res.status, body?.error?.message ?? `The server answered HTTP ${res.status}`);
  }
  return res;
}

/** The methods of the server at `serverUrl`; token-only when it has no `/auth/methods` (404). */
export async function fetchMethods(serverUrl: string, signal?: AbortSignal): Promise<SignInMethods> {
  try {
    const body = (await (await call(`${serverUrl}/auth/methods`, { signal })).json()) as Partial<SignInMethods>;
    return {
      sso: body.sso === true,
      oidc: body.oidc && typeof body.oidc.label === 'string' ? body.oidc : null,
      email: body.email === true,
      token: true,
    };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return TOKEN_ONLY;
    throw err;
  }
}

/** Asks the server to mail a sign-in link to `email` (it continues to `next` once followed). */
export async function requestEmailLink(serverUrl: string, email: string, next?: string): Promise<void> {
  await call(`${serverUrl}/auth/email/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(next ? { email, next } : { email }),
  });
}

/** Ends the browser's session: the server revokes it and clears the cookie. */
export async function endBrowserSession(serverUrl: string): Promise<void> {
  await call(`${serverUrl}/auth/sign-out`, { method: 'POST' });
}

/** The SAML start address for a work email (the server finds the organization's IdP). */
export function ssoStartUrl(serverUrl: string, email: string, next: string): string {
  return `${serverUrl}/auth/sso/start?${new URLSearchParams({ email, next }).toString()}`;
}

/** The OpenID Connect start address (the server's `startURL`, else its default route) with `next`. */
export function oidcStartUrl(serverUrl: string, next: string, startURL?: string): string {
  const url = new URL(startURL || '/auth/oidc/start', `${serverUrl}/`);
  url.searchParams.set('next', next);
  return url.toString();
}

/**
 * A `next` the web app may go to after signing in: a path on this server only
 * (never `//other.example` or a scheme), else undefined.
 */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters never belong in a path we navigate to
  if (/[\u0000-\u001f\u007f]/.test(next)) return undefined;
  return next;
}
