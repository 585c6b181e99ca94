/**
 * The parameters of a desktop app's authorization request (OAuth 2.0 for
 * native apps, RFC 8252, with PKCE S256, RFC 7636), checked before anything
 * is shown or stored. Pure: no I/O.
 */

/** The one custom-scheme address a code may be handed to (the desktop app's deep link). */
export const DEEP_LINK_REDIRECT = 'folio://auth/callback';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A checked authorization request. */
export interface DeviceAuthorization {
  redirectUri: string;
  state: string;
  /** base64url(SHA-256(code_verifier)), 43 characters. */
  codeChallenge: string;
  /** The name the app gave its computer, if any. */
  deviceName: string | undefined;
}

export type Parsed = { ok: true; value: DeviceAuthorization } | { ok: false; message: string };

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why `uri` may not receive a code, or undefined when it may: only the app
 * itself may get one, so only a loopback listener (`http://127.0.0.1:<port>/…`,
 * `localhost`, `[::1]`, with its port) or the deep link. Any other address
 * would hand the person's account to whatever answers there.
 */
export function redirectUriProblem(uri: string): string | undefined {
  const expected = `must be ${DEEP_LINK_REDIRECT} or a loopback address such as http://127.0.0.1:<port>/callback`;
  if (uri.length > 2000 || CONTROL.test(uri)) return `redirect_uri ${expected}`;
  if (uri === DEEP_LINK_REDIRECT) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uri is not a URL: it ${expected}`;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return `redirect_uri ${expected}`;
  if (!url.port) return 'redirect_uri must name the port of the app’s loopback listener';
  if (url.username || url.password || uri.includes('#'))
    return 'redirect_uri must not carry a user name, a password or a #fragment';
  return undefined;
}

/** One value of a query or form field (a repeated field is refused: which one would count?). */
function single(input: Record<string, unknown>, name: string): string | undefined | null {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  return typeof value === 'string' ? value : null;
}

/** Checks an authorization request's fields (from the query of /authorize, or the consent form). */
export function parseDeviceAuthorization(input: Record<string, unknown>): Parsed {
  const fail = (message: string): Parsed => ({ ok: false, message });
  const redirectUri = single(input, 'redirect_uri');
  if (!redirectUri) return fail('redirect_uri is required');
  const problem = redirectUriProblem(redirectUri);
  if (problem) return fail(problem);
  const state = single(input, 'state');
  if (!state) return fail('state is required (the app checks that it comes back unchanged)');
  if (state.length > 500 || CONTROL.test(state)) return fail('state must be at most 500 printable characters');
  if (single(input, 'code_challenge_method') !== 'S256') return fail('code_challenge_method must be S256');
  const codeChallenge = single(input, 'code_challenge');
  if (!codeChallenge || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge))
    return fail('code_challenge must be the base64url SHA-256 of the code verifier (43 characters)');
  const name = single(input, 'device_name');
  if (name === null) return fail('device_name must be given once');
  const deviceName = name?.trim() || undefined;
  if (deviceName && (deviceName.length > 100 || CONTROL.test(deviceName)))
    return fail('device_name must be at most 100 printable characters');
  return { ok: true, value: { redirectUri, state, codeChallenge, deviceName } };
}

/** The authorization request as the query of /auth/device/authorize (to come back to it after signing in). */
export function authorizeQuery(auth: DeviceAuthorization): string {
  return new URLSearchParams({
    redirect_uri: auth.redirectUri,
    state: auth.state,
    code_challenge: auth.codeChallenge,
    code_challenge_method: 'S256',
    ...(auth.deviceName ? { device_name: auth.deviceName } : {}),
  }).toString();
}

/** The app's address with the answer's parameters (`code` and `state`, or `error` and `state`). */
export function callbackUrl(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** The CSP `form-action` source that lets the consent form's redirect reach the app (browsers check redirects too). */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  // CSP host sources cannot name an IPv6 literal: the scheme alone, for [::1].
  return url.protocol === 'folio:' || url.hostname === '[::1]' ? url.protocol : url.origin;
}
