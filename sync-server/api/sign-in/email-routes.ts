import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context';
import { errorBody } from '../../http/errors';
import { hashToken } from '../../http/ids';
import { mustUseSso } from '../../identity/accounts';
import { isSameOrigin } from '../../identity/sessions';
import { hasPendingEmailInvite } from '../../store/invites';
import {
  peekSignInRequest,
  PendingSignInLimitError,
  pendingSignInWait,
  saveSignInRequest,
  takeSignInRequest,
} from '../../store/sign-in-requests';
import { findUserByEmail } from '../../store/users';
import { finishWebSignIn, safeNext } from './finish';
import { installFormParser } from './form-body';
import { escapeHtml, renderPage, sendPage, sendSignInError } from './page';
import { accountForProvedEmail, hasEmailDomainOrganization, SSO_REQUIRED_MESSAGE } from './provision';

/** How long a mailed link works. */
export const EMAIL_LINK_TTL_MS = 15 * 60_000;

/**
 * Requests for links, per client address and per email address, in this
 * window: enough for a person who lost a mail or two, too few to flood
 * someone's inbox or probe many addresses. Counted in this process (a
 * cluster multiplies the budget by its process count; the per-email limit
 * still bounds what one inbox can receive from each).
 */
const LINK_WINDOW_S = 15 * 60;
const LINKS_PER_ADDRESS = 30;
const LINKS_PER_EMAIL = 5;

const StartBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    next: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

/** What is stored per link, under the digest of its secret: who it signs in, and where to go after. */
interface StoredEmailLink {
  email: string;
  next: string;
}

/** The stored id of a link's secret (only the digest is kept: a leaked table holds no usable link). */
const linkId = (token: string) => hashToken(token);

/** A link's secret as the browser brings it: 256 bits in base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Email sign-in links (registered under /auth):
 * - `POST /email/start` `{email, next?}` always answers 202 `{sent: true}`
 *   (whether the address has an account is nobody's business) and mails a
 *   one-use link, valid 15 minutes, when the address may sign in this way;
 * - `GET /email/verify?token=` shows a confirmation page whose button posts
 *   the token (mail scanners that open links do not use it up);
 * - `POST /email/verify` takes the link once and signs its address in.
 */
export const emailLinkRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    installFormParser(app);
    const perAddress = new RateLimiterMemory({
      keyPrefix: 'email-link-ip',
      points: LINKS_PER_ADDRESS,
      duration: LINK_WINDOW_S,
    });
    const perEmail = new RateLimiterMemory({
      keyPrefix: 'email-link-to',
      points: LINKS_PER_EMAIL,
      duration: LINK_WINDOW_S,
    });

    /** Seconds to wait when `key` is over `limiter`'s budget, else 0. */
    const over = async (limiter: RateLimiterMemory, key: string): Promise<number> => {
      try {
        await limiter.consume(key);
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw err;
      }
    };

    /** Too many sign-ins in progress from this address (FOLIO_RATE_LIMIT_PENDING_SIGN_INS): 429, nothing mailed. */
    const tooManyPending = (reply: FastifyReply, refusal: PendingSignInLimitError) =>
      reply
        .code(429)
        .header('retry-after', String(refusal.retryAfterS))
        .header('cache-control', 'no-store')
        .send(errorBody(429, refusal.message));

    /**
     * Whether a link may be mailed to `email`: the address is a user's, or is
     * in an organization's email domain, or has a pending invite; never for a
     * person whose organization requires its SAML single sign-on.
     */
    const mayReceiveLink = async (email: string): Promise<boolean> => {
      const user = await findUserByEmail(ctx.db, email);
      if (user) return !(await mustUseSso(ctx.db, user.id));
      return (await hasEmailDomainOrganization(ctx.db, email)) || (await hasPendingEmailInvite(ctx.db, email));
    };

    app.post('/email/start', { schema: { body: StartBody } }, async (request, reply) => {
      if (!ctx.config.emailSignIn)
        return reply.code(404).send(errorBody(404, 'Email sign-in is turned off on this server (FOLIO_EMAIL_SIGN_IN)'));
      const body = request.body as Static<typeof StartBody>;
      const email = body.email.trim().toLowerCase();
      const wait = Math.max(await over(perAddress, request.ip), await over(perEmail, email));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return reply.code(429).send(errorBody(429, `Too many sign-in links asked for; retry in ${wait} s`));
      }
      const now = ctx.clock.now();
      // Before the address is looked at: a 429 only for addresses that would get a link would tell who has an account.
      const full = await pendingSignInWait(ctx.db, now);
      if (full > 0) return tooManyPending(reply, new PendingSignInLimitError(full));
      if (await mayReceiveLink(email)) {
        const token = randomBytes(32).toString('base64url');
        const stored: StoredEmailLink = { email, next: safeNext(body.next) };
        try {
          await saveSignInRequest(ctx.db, {
            id: linkId(token),
            kind: 'email-link',
            data: stored,
            expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS),
            now,
          });
        } catch (err) {
          // Filled up by a parallel request since the check above.
          if (err instanceof PendingSignInLimitError) return tooManyPending(reply, err);
          throw err;
        }
        const link = `${ctx.urls.root}/auth/email/verify?token=${token}`;
        // Not awaited: the answer must take as long for an address that gets mail as for one that does not.
        ctx.mailer
          .sendSignInLink({ to: email, link, expiresInMinutes: EMAIL_LINK_TTL_MS / 60_000 })
          .catch((err: unknown) =>
            request.log.error({ err: (err as Error).message }, 'the sign-in link could not be mailed'),
          );
      }
      return reply.code(202).header('cache-control', 'no-store').send({ sent: true });
    });

    const unusable = (request: FastifyRequest, reply: FastifyReply) =>
      sendSignInError(request, reply, 400, 'This sign-in link was already used or has expired; ask for a new one');

    app.get('/email/verify', async (request, reply) => {
      const token = (request.query as Record<string, unknown>).token;
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return unusable(request, reply);
      const stored = await peekSignInRequest<StoredEmailLink>(ctx.db, linkId(token), 'email-link', ctx.clock.now());
      if (!stored) return unusable(request, reply);
      const email = escapeHtml(stored.email);
      const body = `<h1>Sign in to Folio</h1>
<p>You are signing in as <strong>${email}</strong>.</p>
<form method="post" action="/auth/email/verify">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Sign in as ${email}</button>
</form>
<p class="links">Not you? Close this page: nothing happens without the button.</p>`;
      return sendPage(reply, 200, renderPage({ title: 'Sign in', body }));
    });

    app.post('/email/verify', async (request, reply) => {
      // Only this server's own confirmation page may post a link: a form on another site could
      // otherwise sign a visitor in as the other site's owner (login CSRF) with a link of their own.
      if (!isSameOrigin(request.headers, ctx.urls.root, false))
        return sendSignInError(
          request,
          reply,
          403,
          "Sign-in links are confirmed on this server's own page; open the link again",
        );
      const token = (request.body as Record<string, unknown> | undefined)?.token;
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return unusable(request, reply);
      const stored = await takeSignInRequest<StoredEmailLink>(ctx.db, linkId(token), 'email-link', ctx.clock.now());
      if (!stored) return unusable(request, reply);
      // The address is the one the link was mailed to, from the stored request: nothing in the post can change it.
      const email = stored.email;
      const account = await accountForProvedEmail(ctx.db, { email }, ctx.clock.now());
      if (account === 'sso-required') return sendSignInError(request, reply, 403, SSO_REQUIRED_MESSAGE);
      return finishWebSignIn(ctx, request, reply, account.userId, 'email', stored.next);
    });
  };
