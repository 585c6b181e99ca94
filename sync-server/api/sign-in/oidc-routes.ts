import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { AppContext } from '../../context';
import type * as OidcModule from '../../identity/oidc';
import type { OidcPending, OidcProvider } from '../../identity/oidc';
import { PendingSignInLimitError, saveSignInRequest, takeSignInRequest } from '../../store/sign-in-requests';
import { finishWebSignIn, safeNext } from './finish';
import { sendSignInError, sendTooManySignIns } from './page';
import { accountForProvedEmail, SSO_REQUIRED_MESSAGE } from './provision';

/** How long the provider's login may take before the pending state is void. */
const STATE_TTL_MS = 10 * 60_000;

/**
 * The cookie that ties a pending sign-in to the browser that started it: the
 * callback must come with the same `state`, or someone could send a victim to
 * a callback URL of a sign-in they started themselves and the victim would
 * end up signed in as them (login CSRF). SameSite=Lax: it comes back on the
 * provider's top-level redirect.
 */
const STATE_COOKIE = 'folio_oidc_state';

/** What is stored per pending sign-in (under its `state`). */
interface StoredOidcRequest {
  nonce: string;
  codeVerifier: string;
  next: string;
}

function stateCookie(value: string, root: string, maxAgeS: number): string {
  return stringifySetCookie({
    name: STATE_COOKIE,
    value,
    httpOnly: true,
    sameSite: 'lax',
    secure: root.startsWith('https:'),
    path: '/auth/oidc',
    maxAge: maxAgeS,
  });
}

let oidcModule: Promise<typeof OidcModule> | undefined;
/** identity/oidc.ts and openid-client load only where OpenID Connect is configured, not at boot otherwise. */
const loadOidc = () => (oidcModule ??= import('../../identity/oidc'));

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * OpenID Connect sign-in (registered under /auth):
 * - `GET /oidc/start?next=` saves a pending state (nonce, PKCE verifier,
 *   where to go afterwards) and redirects to the provider;
 * - `GET /oidc/callback` takes that state once, exchanges the code, and signs
 *   the person in (made on first sign-in, joined to the organizations of their
 *   email domain), ending in a session cookie and a redirect to `next`.
 * Every refusal is a 4xx page (JSON when asked) and issues nothing. 404 while
 * no provider is configured.
 */
export const oidcRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // The same test as oidcSettings(): without an issuer and a client, nothing of OpenID Connect loads.
    const oidc = ctx.config.oidcIssuer && ctx.config.oidcClientId ? await loadOidc() : undefined;
    const OidcError = oidc?.OidcError;
    const settings = oidc?.oidcSettings(ctx.config);
    // Discovery is retried on the server's clock: tests move it instead of waiting.
    const provider = oidc && settings ? new oidc.OidcProvider(settings, () => ctx.clock.now().getTime()) : undefined;
    if (
      oidc &&
      settings &&
      settings.issuer.protocol !== 'https:' &&
      !oidc.mayUsePlainHttp(settings.issuer, settings.outboundAllow)
    )
      ctx.log.warn(oidc.PLAIN_HTTP_REFUSED);
    const redirectUri = () => `${ctx.urls.root}/auth/oidc/callback`;

    const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
      reply.header('set-cookie', stateCookie('', ctx.urls.root, 0));
      return sendSignInError(request, reply, status, message, {
        href: '/auth/oidc/start',
        label: 'Start again',
      });
    };

    app.get('/oidc/start', async (request, reply) => {
      if (!provider) return sendSignInError(request, reply, 404, 'OpenID Connect sign-in is not configured');
      let started: Awaited<ReturnType<OidcProvider['start']>>;
      try {
        started = await provider.start(redirectUri());
      } catch (err) {
        if (OidcError && err instanceof OidcError) return sendSignInError(request, reply, err.status, err.message);
        throw err;
      }
      const { url, pending } = started;
      const stored: StoredOidcRequest = {
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
        next: safeNext(queryOf(request).next),
      };
      const now = ctx.clock.now();
      try {
        await saveSignInRequest(ctx.db, {
          id: pending.state,
          kind: 'oidc',
          data: stored,
          expiresAt: new Date(now.getTime() + STATE_TTL_MS),
          now,
        });
      } catch (err) {
        // Too many sign-ins in progress from this address (FOLIO_RATE_LIMIT_PENDING_SIGN_INS): nothing saved.
        if (err instanceof PendingSignInLimitError) return sendTooManySignIns(request, reply, err);
        throw err;
      }
      reply.header('set-cookie', stateCookie(pending.state, ctx.urls.root, STATE_TTL_MS / 1000));
      reply.header('cache-control', 'no-store');
      return reply.redirect(url.href, 302);
    });

    app.get('/oidc/callback', async (request, reply) => {
      if (!provider) return sendSignInError(request, reply, 404, 'OpenID Connect sign-in is not configured');
      const query = queryOf(request);
      const state = text(query.state);
      const providerError = text(query.error);
      if (!state) {
        const why = providerError ? `the provider answered "${providerError}"` : 'the answer carries no state';
        return refuse(request, reply, 400, `This sign-in cannot be finished: ${why}`);
      }
      const cookieState = parseCookie(request.headers.cookie ?? '')[STATE_COOKIE];
      if (cookieState !== state)
        return refuse(
          request,
          reply,
          400,
          'This sign-in was not started in this browser, or it took too long; start again',
        );
      // Taken before anything else: whatever happens next, this state cannot be used again.
      const stored = await takeSignInRequest<StoredOidcRequest>(ctx.db, state, 'oidc', ctx.clock.now());
      if (!stored) return refuse(request, reply, 400, 'This sign-in was already used or has expired; start again');
      if (providerError) {
        const description = text(query.error_description);
        return refuse(
          request,
          reply,
          providerError === 'access_denied' ? 403 : 400,
          `The OpenID provider refused the sign-in (${providerError}${description ? `: ${description}` : ''})`,
        );
      }
      const pending: OidcPending = { state, nonce: stored.nonce, codeVerifier: stored.codeVerifier };
      let person: Awaited<ReturnType<OidcProvider['finish']>>;
      try {
        person = await provider.finish(new URL(request.url, redirectUri()), pending);
      } catch (err) {
        if (OidcError && err instanceof OidcError) return refuse(request, reply, err.status, err.message);
        throw err;
      }
      if (!person.email)
        return refuse(
          request,
          reply,
          400,
          'The OpenID provider did not share an email address; allow the "email" scope for Folio at the provider',
        );
      if (person.emailVerified === false)
        return refuse(request, reply, 403, `The OpenID provider has not verified the address ${person.email}`);
      const account = await accountForProvedEmail(
        ctx.db,
        { email: person.email, displayName: person.name },
        ctx.clock.now(),
      );
      if (account === 'sso-required') return refuse(request, reply, 403, SSO_REQUIRED_MESSAGE);
      reply.header('set-cookie', stateCookie('', ctx.urls.root, 0));
      return finishWebSignIn(ctx, request, reply, account.userId, 'oidc', stored.next);
    });
  };
