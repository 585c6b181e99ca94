/**
 * The desktop app's sign-in through the system browser (RFC 8252, "OAuth for
 * native apps"): the app listens on a loopback port, opens the server's device
 * authorization page in the browser (where the person signs in with SSO,
 * OpenID Connect or an email link and approves the device), receives the
 * one-time `code` on the loopback redirect, and exchanges it — with the PKCE
 * verifier only this app knows — for a per-device API token. Another app that
 * sees the code (the browser history, a process listening on the port later)
 * cannot use it without the verifier.
 */

/** A sign-in method the browser page should start with. */
export type BrowserMethod = 'sso' | 'oidc' | 'email';

/** PKCE: the secret verifier and its S256 challenge. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

/** What the server hands the app for a device. */
export interface DeviceToken {
  token: string;
  tokenId: string;
  userId: string;
  expiresAt: string;
}

/** The platform's side (main/browser-sign-in.ts): a loopback listener and the system browser. */
export interface BrowserSignInHooks {
  /** Starts listening on 127.0.0.1; the redirect URI to give the server. */
  listen(): Promise<{ id: string; redirectUri: string }>;
  /** Opens `url` in the system browser and resolves with the query of the loopback callback. */
  openAndWait(id: string, url: string): Promise<Record<string, string>>;
}

/** base64url without padding (RFC 4648 §5), what PKCE and `state` use. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A random URL-safe string of `bytes` random bytes (WebCrypto). */
export function randomString(bytes = 32, crypto: Crypto = globalThis.crypto): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A fresh PKCE pair: a 43-character verifier and BASE64URL(SHA-256(verifier)) (RFC 7636 §4.2). */
export async function createPkce(crypto: Crypto = globalThis.crypto): Promise<Pkce> {
  const verifier = randomString(32, crypto);
  return { verifier, challenge: await pkceChallenge(verifier, crypto) };
}

/** The S256 challenge of a verifier. */
export async function pkceChallenge(verifier: string, crypto: Crypto = globalThis.crypto): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The server's device authorization page for this sign-in (a path on the server, with its query). */
export function authorizePath(params: {
  redirectUri: string;
  state: string;
  challenge: string;
  deviceName: string;
}): string {
  const query = new URLSearchParams({
    redirect_uri: params.redirectUri,
    state: params.state,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    device_name: params.deviceName,
  });
  return `/auth/device/authorize?${query.toString()}`;
}

/**
 * The page to open in the browser: the web app's sign-in screen, which starts
 * `method` and then continues to the authorization page (`next`). Without a
 * method, the authorization page itself (it sends a signed-out browser to sign in).
 */
export function browserSignInUrl(serverUrl: string, authorize: string, method?: BrowserMethod): string {
  if (!method) return `${serverUrl}${authorize}`;
  const query = new URLSearchParams({ next: authorize, method });
  return `${serverUrl}/app/sign-in?${query.toString()}`;
}

/**
 * The code from the loopback callback's query.
 * @throws Error when the state differs (a callback this sign-in did not ask for), or the server reported an error.
 */
export function codeFromCallback(query: Record<string, string>, expectedState: string): string {
  if (query.state !== expectedState)
    throw new Error('The browser answered a different sign-in (state mismatch); try again');
  if (query.error) {
    const why = query.error === 'access_denied' ? 'the sign-in was declined in the browser' : query.error;
    throw new Error(`Sign-in failed: ${query.error_description || why}`);
  }
  if (!query.code) throw new Error('The browser returned no sign-in code; try again');
  return query.code;
}

/**
 * Exchanges the code for a device token (`POST /auth/device/token`).
 * @throws Error with the server's message when it refuses.
 */
export async function exchangeCode(
  serverUrl: string,
  params: { code: string; verifier: string; redirectUri: string },
  fetchImpl: typeof fetch = fetch,
): Promise<DeviceToken> {
  const res = await fetchImpl(`${serverUrl}/auth/device/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: params.code, code_verifier: params.verifier, redirect_uri: params.redirectUri }),
  });
  const body = (await res.json().catch(() => undefined)) as
    (Partial<DeviceToken> & { error?: { message?: string } }) | undefined;
  if (!res.ok || !body?.token)
    throw new Error(body?.error?.message ?? `The server refused the sign-in code (HTTP ${res.status})`);
  return body as DeviceToken;
}

/**
 * The whole flow: listen, open the browser, check the callback, exchange the code. `signal` gives
 * it up (the person cancelled, or the screen that started it is gone): it rejects with an
 * AbortError at once and never exchanges a code that arrives later, so no device token is minted
 * for a sign-in nobody waits for. (The loopback listener itself closes on its own timeout.)
 */
export async function signInThroughBrowser(
  serverUrl: string,
  method: BrowserMethod | undefined,
  hooks: BrowserSignInHooks,
  deviceName: string,
  signal?: AbortSignal,
): Promise<DeviceToken> {
  const step = <T>(work: Promise<T>): Promise<T> => untilAborted(work, signal);
  const pkce = await step(createPkce());
  const state = randomString(16);
  const { id, redirectUri } = await step(hooks.listen());
  const authorize = authorizePath({ redirectUri, state, challenge: pkce.challenge, deviceName });
  const query = await step(hooks.openAndWait(id, browserSignInUrl(serverUrl, authorize, method)));
  const code = codeFromCallback(query, state);
  return step(exchangeCode(serverUrl, { code, verifier: pkce.verifier, redirectUri }));
}

/** `work`, or an AbortError as soon as `signal` aborts (whichever comes first). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(abortError());
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        if (signal.aborted) reject(abortError());
        else resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(signal.aborted ? abortError() : err);
      },
    );
  });
}

function abortError(): Error {
  return new DOMException('The sign-in was cancelled', 'AbortError');
}
