import type { BrowserMethod } from './device-flow';
import { safeNextPath } from './auth-api';

/** Where a browser sign-in should continue, and which method to start at once. */
export interface SignInTarget {
  next?: string;
  method?: BrowserMethod;
}

const METHODS: readonly string[] = ['sso', 'oidc', 'email'];

/**
 * What the web app's location asks of the sign-in screen: on `/app/sign-in?next=…&method=…`
 * (the desktop app's device flow, the server's consent page), that `next` — when it is a path
 * on this server — and method; on any other screen reached signed out, that screen itself, so
 * the person lands where the link pointed.
 */
export function signInTarget(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  onSignInRoute: boolean,
): SignInTarget {
  if (!onSignInRoute) return { next: `${location.pathname}${location.hash}` };
  const query = new URLSearchParams(location.search);
  const next = safeNextPath(query.get('next'));
  const method = query.get('method');
  return {
    ...(next ? { next } : {}),
    ...(method && METHODS.includes(method) ? { method: method as BrowserMethod } : {}),
  };
}
