import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { deviceRoutes } from './device-routes';
import { emailLinkRoutes } from './email-routes';
import { oidcRoutes } from './oidc-routes';
import { samlRoutes } from './saml-routes';
import { sessionRoutes } from './session-routes';

/**
 * Everything a browser or the desktop app uses to sign in, under /auth
 * (registered by app.ts outside /v1: the auth hook ignores these routes, and
 * each one that needs the signed-in person resolves the session cookie itself,
 * browser-session.ts). Each way of signing in is a sub-plugin with its own
 * prefix; each one that takes form posts installs the form parser in its own
 * scope (form-body.ts).
 */
export const signInRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Sessions: GET /auth/methods, POST /auth/sign-out.
    await app.register(sessionRoutes(ctx));
    // The desktop app: /auth/device/authorize, /approve, /token.
    await app.register(deviceRoutes(ctx), { prefix: '/device' });
    // SAML: /auth/saml/:providerId/{metadata,start,acs}, /auth/sso/start.
    await app.register(samlRoutes(ctx));
    // OpenID Connect: /auth/oidc/start, /auth/oidc/callback.
    await app.register(oidcRoutes(ctx));
    // Email links: /auth/email/start, /auth/email/verify.
    await app.register(emailLinkRoutes(ctx));
  };
