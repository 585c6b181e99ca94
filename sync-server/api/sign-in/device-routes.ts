import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { isSameOrigin } from '../../identity/sessions';
import { PendingSignInLimitError } from '../../store/sign-in-requests';
import { browserSession } from './browser-session';
import { approveDevice, exchangeDeviceCode, ssoRequiredFor } from './device-code';
import { sendConsentPage, sendDeviceError, sendSsoRequiredPage } from './device-page';
import { authorizeQuery, callbackUrl, parseDeviceAuthorization } from './device-request';
import { installFormParser } from './form-body';
import { allowAnyOrigin } from './open-cors';

/** Where the web app signs a browser in (it comes back to `next` afterwards). */
const SIGN_IN_PAGE = '/app/sign-in';

const TokenBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
  // RFC 7636: 43 to 128 characters of the unreserved set.
  code_verifier: Type.String({ minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' }),
  redirect_uri: Type.String({ minLength: 1, maxLength: 2000 }),
});

const TokenResponse = Type.Object({
  token: Type.String(),
  tokenId: Type.String(),
  userId: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

/**
 * The desktop app's sign-in, under /auth/device (OAuth 2.0 for native apps
 * with PKCE): the app opens /authorize in the browser; a signed-in person
 * approves on a consent page; the browser is sent to the app's loopback or
 * deep-link address with a one-use code; the app trades it at /token for a
 * device token. Pages, not JSON, until the exchange: a person reads them.
 */
export const deviceRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    installFormParser(app);
    allowAnyOrigin(app, '/token', 'POST');

    app.get('/authorize', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      const parsed = parseDeviceAuthorization(req.query as Record<string, unknown>);
      if (!parsed.ok) return sendDeviceError(reply, 400, parsed.message);
      const session = await browserSession(ctx, req);
      if (!session) return reply.redirect(`${SIGN_IN_PAGE}?next=${encodeURIComponent(req.url)}`, 303);
      if (await ssoRequiredFor(ctx, session.principal.userId, session.method))
        return sendSsoRequiredPage(reply, parsed.value);
      return sendConsentPage(reply, parsed.value, session.principal);
    });

    app.post('/approve', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      // The cookie alone must not approve: another site could post this form in a signed-in browser.
      if (!isSameOrigin(req.headers, ctx.urls.root, false))
        return sendDeviceError(reply, 403, 'Cross-site request refused: approve from this server’s own page.');
      const parsed = parseDeviceAuthorization((req.body ?? {}) as Record<string, unknown>);
      if (!parsed.ok) return sendDeviceError(reply, 400, parsed.message);
      const auth = parsed.value;
      const decision = (req.body as Record<string, unknown>).decision;
      reply.header('cache-control', 'no-store');
      if (decision === 'cancel')
        return reply.redirect(callbackUrl(auth.redirectUri, { error: 'access_denied', state: auth.state }), 303);
      if (decision !== 'approve') return sendDeviceError(reply, 400, 'decision must be approve or cancel');
      const session = await browserSession(ctx, req);
      // Signed out (or expired) since the page was shown: sign in, then see the page again.
      if (!session)
        return reply.redirect(
          `${SIGN_IN_PAGE}?next=${encodeURIComponent(`/auth/device/authorize?${authorizeQuery(auth)}`)}`,
          303,
        );
      if (await ssoRequiredFor(ctx, session.principal.userId, session.method)) return sendSsoRequiredPage(reply, auth);
      let code: string;
      try {
        code = await approveDevice(ctx, session, auth);
      } catch (err) {
        if (!(err instanceof PendingSignInLimitError)) throw err;
        // Nothing is handed to the app: it starts again later.
        return sendDeviceError(reply.header('retry-after', String(err.retryAfterS)), 429, err.message);
      }
      return reply.redirect(callbackUrl(auth.redirectUri, { code, state: auth.state }), 303);
    });

    app.post(
      '/token',
      { config: { public: true }, schema: { hide: true, body: TokenBody, response: { 200: TokenResponse } } },
      async (req, reply) => {
        const { code, code_verifier, redirect_uri } = req.body;
        const issued = await exchangeDeviceCode(
          ctx,
          { code, codeVerifier: code_verifier, redirectUri: redirect_uri },
          req.headers['user-agent'],
        );
        reply.header('cache-control', 'no-store');
        return issued;
      },
    );
  };
