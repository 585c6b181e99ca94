import { ApiClient, ApiError, normalizeServerUrl } from './api/client';
import type { User } from './api/types';
import { platform, type Account, type AppAccount } from './platform';
import { endBrowserSession } from './sign-in/auth-api';

/**
 * The signed-in account: which server, which token, who that is. Accounts
 * and the active server live in the platform store (the desktop app's
 * settings file, or localStorage on the web), so a restart — even offline —
 * reopens the last account without asking again. The web app served by a
 * server may instead be signed in to that server with its session cookie
 * (SSO, OpenID Connect, an email link): such an account has no token and is
 * not stored; the cookie is asked about on every start.
 */

/** An account in use. */
export interface Session {
  account: AppAccount;
  api: ApiClient;
  /** Display name for presence and comments (cached in the account, so it is known offline). */
  displayName: string;
  userId?: string;
}

/**
 * The active account, or undefined when nobody is signed in: the saved account in use, else (web
 * app served by a server) the browser's session on that server, if its cookie is still good.
 */
export async function restoreSession(): Promise<Session | undefined> {
  const settings = await platform().settings.get();
  const account =
    settings.activeServerUrl &&
    (await platform().accounts.list()).find((a) => a.serverUrl === settings.activeServerUrl);
  if (account) return toSession(account);
  const own = servingServerUrl();
  return own ? cookieSession(own).catch(() => undefined) : undefined;
}

/** The server this page is served by (the web app at /app/), else undefined (desktop, static hosts). */
export function servingServerUrl(): string | undefined {
  return location.protocol.startsWith('http') && (location.pathname === '/app' || location.pathname.startsWith('/app/'))
    ? location.origin
    : undefined;
}

/**
 * The browser's session on `serverUrl` (this page's own server), or undefined when it has none
 * (no cookie, expired, revoked: 401).
 * @throws OfflineError when the server is unreachable.
 */
export async function cookieSession(serverUrl: string): Promise<Session | undefined> {
  const api = new ApiClient(serverUrl, undefined);
  try {
    const user = await api.request<User>('/user');
    return toSession({ serverUrl, displayName: user.displayName, userId: user.id });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return undefined;
    throw err;
  }
}

/**
 * Checks the token against the server (getAuthenticatedUser), then stores the
 * account and makes it the active one.
 * @throws ApiError (bad token) or OfflineError (server unreachable).
 */
export async function signIn(serverUrl: string, token: string): Promise<Session> {
  const url = normalizeServerUrl(serverUrl);
  const api = new ApiClient(url, token.trim());
  const user = await api.request<User>('/user');
  const account: Account = { serverUrl: url, token: token.trim(), displayName: user.displayName, userId: user.id };
  await platform().accounts.save(account);
  await platform().settings.update({ activeServerUrl: url });
  return toSession(account);
}

/**
 * Signs the active account out: a cookie session is ended on the server (which clears the
 * cookie); a token account's token is forgotten. Documents stay cached in IndexedDB.
 */
export async function signOut(session: Session): Promise<void> {
  if (session.account.token === undefined)
    await endBrowserSession(session.account.serverUrl).catch((err: unknown) => {
      // Revoked meanwhile (from another device): it is over already.
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    });
  else await platform().accounts.remove(session.account.serverUrl);
  await platform().settings.update({ activeServerUrl: undefined });
}

/**
 * Makes a saved account the active one.
 * @throws Error when no account is saved for `serverUrl` (removed in another window meanwhile).
 */
export async function switchAccount(serverUrl: string): Promise<Session> {
  const account = (await platform().accounts.list()).find((a) => a.serverUrl === serverUrl);
  if (!account) throw new Error(`No account is saved for ${serverUrl} any more`);
  await platform().settings.update({ activeServerUrl: account.serverUrl });
  return toSession(account);
}

/** Forgets a saved account that is not the active one (the active one signs out instead). */
export async function removeAccount(serverUrl: string): Promise<void> {
  await platform().accounts.remove(serverUrl);
}

/** Records a space as recently opened (the start screen lists them, also offline). */
export async function rememberSpace(session: Session, spaceId: string, title: string): Promise<void> {
  const { recentSpaces } = await platform().settings.get();
  const others = recentSpaces.filter((r) => !(r.serverUrl === session.account.serverUrl && r.spaceId === spaceId));
  await platform().settings.update({
    recentSpaces: [
      { serverUrl: session.account.serverUrl, spaceId, title, openedAt: new Date().toISOString() },
      ...others,
    ],
  });
}

/** The spaces recently opened on this session's server, most recent first. */
export async function recentSpaces(session: Session) {
  const { recentSpaces } = await platform().settings.get();
  return recentSpaces.filter((r) => r.serverUrl === session.account.serverUrl);
}

function toSession(account: AppAccount): Session {
  return {
    account,
    api: new ApiClient(account.serverUrl, account.token),
    displayName: account.displayName ?? 'Anonymous',
    userId: account.userId,
  };
}
