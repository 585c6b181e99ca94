import { createHash, randomBytes } from 'node:crypto';
import { issueCredential, SESSION_COOKIE, type SignInMethod } from '../../sync-server/identity/sessions';
import type { TestServer } from './server';

/** A web session as a sign-in makes it (identity/sessions.ts), and the Cookie header that carries it. */
export interface TestSession {
  id: string;
  token: string;
  cookie: string;
}

/**
 * Signs `userId` in as a finished browser sign-in does (a session row and
 * its cookie). `ttlMs` and `issuedAt` make short-lived or already expired
 * sessions: expiry is judged by the database's clock, so an expired one is
 * issued in the past rather than waited for.
 */
export async function signIn(
  t: TestServer,
  userId: string,
  options: { method?: SignInMethod; ttlMs?: number; issuedAt?: Date; userAgent?: string } = {},
): Promise<TestSession> {
  const credential = await issueCredential(t.server.ctx.db, userId, {
    kind: 'session',
    method: options.method ?? 'email',
    now: options.issuedAt ?? new Date(),
    userAgent: options.userAgent ?? 'Test Browser/1.0',
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
  });
  return { id: credential.id, token: credential.token, cookie: `${SESSION_COOKIE}=${credential.token}` };
}

/** The headers a browser sends with a request from one of the server's own pages. */
export function fromOwnPage(t: TestServer, cookie: string): Record<string, string> {
  return { cookie, origin: t.url, 'sec-fetch-site': 'same-origin' };
}

/** A PKCE pair (RFC 7636, S256) as the desktop app makes one. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
