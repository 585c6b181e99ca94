import type { AppContext } from '../../context';
import { anySamlProviderReady } from '../../store/sign-in-methods';

/** Where the OpenID Connect sign-in starts (api/sign-in/oidc-routes.ts); the screen appends `?next=`. */
export const OIDC_START_PATH = '/auth/oidc/start';

/** What the sign-in screen may offer on this server (`GET /auth/methods`). */
export interface SignInMethods {
  /** Some organization has a SAML provider ready: "Continue with SSO". */
  sso: boolean;
  /** OpenID Connect is configured: the button's label and where it starts. */
  oidc: { label: string; startURL: string } | null;
  /** Email sign-in links may be asked for. */
  email: boolean;
  /** Pasting an API token always works (scripts, and servers with no other method). */
  token: true;
}

export async function signInMethods(ctx: AppContext): Promise<SignInMethods> {
  const { config } = ctx;
  return {
    sso: await anySamlProviderReady(ctx.db),
    oidc: config.oidcIssuer ? { label: config.oidcLabel, startURL: `${ctx.urls.root}${OIDC_START_PATH}` } : null,
    email: config.emailSignIn,
    token: true,
  };
}
