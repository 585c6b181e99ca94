import ipaddr from 'ipaddr.js';
import * as client from 'openid-client';
import type { Config } from '../config';

/**
 * OpenID Connect sign-in (authorization code flow with PKCE, `state` and
 * `nonce`) on `openid-client`, which does the protocol checks: the ID token's
 * signature against the provider's keys, issuer, audience, expiry, nonce, and
 * the PKCE exchange. This module only configures it and reads the person out
 * of the result; routes (api/sign-in/oidc-routes.ts) store the pending state.
 */

/** The provider's settings, when OpenID Connect sign-in is configured. */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string | undefined;
  /** FOLIO_OUTBOUND_ALLOW: internal hosts an http (not https) issuer may be on. */
  outboundAllow: string | undefined;
}

/** The settings from `config`, or undefined when OpenID Connect sign-in is off. */
export function oidcSettings(config: Config): OidcSettings | undefined {
  if (!config.oidcIssuer || !config.oidcClientId) return undefined;
  return {
    issuer: new URL(config.oidcIssuer),
    clientId: config.oidcClientId,
    clientSecret: config.oidcClientSecret,
    outboundAllow: config.outboundAllow,
  };
}

/**
 * Whether an `http:` issuer may be used. openid-client refuses plain http
 * (tokens and the client secret would cross the network readable by anyone
 * on the path), so it is allowed only where the path never leaves the machine
 * or the operator vouched for the network: a loopback issuer (a provider on
 * the same host, and the tests' provider) or a host listed in
 * FOLIO_OUTBOUND_ALLOW (an IdP on the internal network, e.g. a Keycloak
 * container reached as http://keycloak:8080).
 */
export function mayUsePlainHttp(issuer: URL, outboundAllow: string | undefined): boolean {
  if (issuer.protocol !== 'http:') return false;
  const host = issuer.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const address = ipaddr.isValid(host) ? ipaddr.process(host) : undefined;
  if (address?.range() === 'loopback') return true;
  for (const raw of (outboundAllow ?? '').split(',')) {
    const item = raw
      .trim()
      .replace(/^\[(.*)\]$/, '$1')
      .toLowerCase();
    if (!item) continue;
    if (item === host) return true;
    if (address && item.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(item);
        if (address.kind() === range.kind() && address.match([range, bits])) return true;
      } catch {
        // Not a CIDR range: config.ts validated the list; a host name simply did not match.
      }
    }
  }
  return false;
}

/** Why an `http:` issuer that is neither loopback nor allowed is not used. */
export const PLAIN_HTTP_REFUSED =
  'FOLIO_OIDC_ISSUER must be an https URL (http only on loopback or on a host listed in FOLIO_OUTBOUND_ALLOW)';

/** What the browser must bring back to finish: stored server-side under `state`, used once. */
export interface OidcPending {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person the provider vouched for. */
export interface OidcPerson {
  subject: string;
  email: string | undefined;
  /** The provider's `email_verified`; undefined when it does not say (Entra ID, for one). */
  emailVerified: boolean | undefined;
  name: string | undefined;
}

/** Why a sign-in could not finish (the routes turn it into a 4xx/502 page). */
export class OidcError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'OidcError';
  }
}

/** How long a failed discovery is remembered before the next request tries again (a provider that is down is not hammered). */
const DISCOVERY_RETRY_MS = 5_000;

/**
 * One configured OpenID provider. Discovery (the provider's
 * `.well-known/openid-configuration` and keys) is fetched on first use and
 * kept; when it fails (the provider is not up yet when Folio starts) the
 * next sign-in, a few seconds later, tries again instead of the server
 * needing a restart.
 */
export class OidcProvider {
  private discovered: Promise<client.Configuration> | undefined;
  private failedAt = 0;

  constructor(
    readonly settings: OidcSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider's configuration, discovered once. */
  configuration(): Promise<client.Configuration> {
    if (this.discovered) return this.discovered;
    if (this.now() - this.failedAt < DISCOVERY_RETRY_MS)
      return Promise.reject(new OidcError(502, 'The OpenID provider could not be reached; try again in a moment'));
    const { issuer, clientId, clientSecret, outboundAllow } = this.settings;
    const insecure = mayUsePlainHttp(issuer, outboundAllow);
    if (issuer.protocol !== 'https:' && !insecure) return Promise.reject(new OidcError(502, PLAIN_HTTP_REFUSED));
    const discovered = client
      .discovery(
        issuer,
        clientId,
        clientSecret,
        // A public client (no secret) authenticates with PKCE alone.
        clientSecret ? undefined : client.None(),
        { ...(insecure ? { execute: [client.allowInsecureRequests] } : {}), timeout: 10 },
      )
      .catch((err: unknown) => {
        this.discovered = undefined;
        this.failedAt = this.now();
        throw new OidcError(502, `The OpenID provider could not be reached: ${(err as Error).message}`);
      });
    this.discovered = discovered;
    return discovered;
  }

  /** A new authorization request: the provider URL to send the browser to, and what to keep until it comes back. */
  async start(redirectUri: string): Promise<{ url: URL; pending: OidcPending }> {
    const config = await this.configuration();
    const pending: OidcPending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * Exchanges the code of the provider's redirect to `callbackUrl` (with the
   * PKCE verifier; state and nonce checked) and reads the person: the ID
   * token's claims, completed from the UserInfo endpoint when the token
   * carries no email (providers may keep claims out of the ID token).
   */
  async finish(callbackUrl: URL, pending: OidcPending): Promise<OidcPerson> {
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new OidcError(400, `The OpenID provider's answer was refused: ${(err as Error).message}`);
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcError(400, 'The OpenID provider sent no ID token');
    let info: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      try {
        info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      } catch (err) {
        throw new OidcError(502, `The OpenID provider's UserInfo could not be read: ${(err as Error).message}`);
      }
    }
    const verified = info.email_verified;
    return {
      subject: claims.sub,
      email: typeof info.email === 'string' ? info.email : undefined,
      // Some providers send the flag as a string.
      emailVerified: verified === undefined ? undefined : verified === true || verified === 'true',
      name: typeof info.name === 'string' ? info.name : undefined,
    };
  }
}
