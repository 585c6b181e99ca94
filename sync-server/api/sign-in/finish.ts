import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { issueCredential, sessionCookie, type SignInMethod } from '../../identity/sessions';

/** Where the web app lives: a sign-in without a (valid) `next` ends there. */
export const DEFAULT_AFTER_SIGN_IN = '/app/';

/**
 * A `next` address a sign-in may return to: a path on this server only
 * (`/app/…`, `/auth/device/…`), never another site (an open redirect would
 * hand a fresh session's page to whoever crafted the link).
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return DEFAULT_AFTER_SIGN_IN;
  // Control characters or a scheme smuggled in after decoding: refuse rather than repair.
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(next)) return DEFAULT_AFTER_SIGN_IN;
  return next;
}

/**
 * Ends every successful browser sign-in: a new session (an HttpOnly cookie)
 * for `userId`, then a 303 to `next` (the web app, or the desktop app's
 * device-authorization page that started the sign-in).
 */
export async function finishWebSignIn(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  method: SignInMethod,
  next?: unknown,
): Promise<FastifyReply> {
  const credential = await issueCredential(ctx.db, userId, {
    kind: 'session',
    method,
    now: ctx.clock.now(),
    userAgent: request.headers['user-agent'],
  });
  reply.header('set-cookie', sessionCookie(credential, ctx.urls.root));
  reply.header('cache-control', 'no-store');
  return reply.redirect(safeNext(next), 303);
}
