import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { badRequest, forbidden } from '../../http/errors';
import { hashToken } from '../../http/ids';
import { mustUseSso } from '../../identity/accounts';
import { issueCredential, type SignInMethod } from '../../identity/sessions';
import { saveSignInRequest, takeSignInRequest } from '../../store/sign-in-requests';
import type { BrowserSession } from './browser-session';
import type { DeviceAuthorization } from './device-request';

/**
 * The desktop app's code exchange: a person approves in the browser, the app
 * gets a one-use code at its redirect address, and trades it (with the PKCE
 * verifier only it knows) for a device token. An app that intercepts the
 * code (another app on the deep link or the port) lacks the verifier.
 */

/** How long an approval's code may be exchanged. */
export const DEVICE_CODE_TTL_MS = 5 * 60_000;

/** What an approval stores, under the digest of its code (never the code). */
interface DeviceCodeData {
  userId: string;
  codeChallenge: string;
  redirectUri: string;
  deviceName: string | undefined;
  /** How the approving browser's session was made (a device token inherits it). */
  method: SignInMethod;
}

/** The device token handed to the app. */
export interface DeviceToken {
  token: string;
  tokenId: string;
  userId: string;
  expiresAt: string;
}

/** Whether a person must use SSO and this sign-in was not made by it: they get no device token then. */
export async function ssoRequiredFor(ctx: AppContext, userId: string, method: SignInMethod): Promise<boolean> {
  return method !== 'saml' && (await mustUseSso(ctx.db, userId));
}

/**
 * Records an approval and returns its one-use code (to be handed to the app's
 * redirect address); throws PendingSignInLimitError when the address has too
 * many sign-ins in progress.
 */
export async function approveDevice(
  ctx: AppContext,
  session: BrowserSession,
  auth: DeviceAuthorization,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const data: DeviceCodeData = {
    userId: session.principal.userId,
    codeChallenge: auth.codeChallenge,
    redirectUri: auth.redirectUri,
    deviceName: auth.deviceName,
    method: session.method,
  };
  const now = ctx.clock.now();
  // Counts against the approving browser's address (PendingSignInLimitError when it has too many pending).
  await saveSignInRequest(ctx.db, {
    id: hashToken(code),
    kind: 'device-code',
    data,
    expiresAt: new Date(now.getTime() + DEVICE_CODE_TTL_MS),
    now,
  });
  return code;
}

/** base64url(SHA-256(verifier)) compared with the challenge in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Trades a code for a device token, once: the code is taken (deleted) before
 * anything is checked, so a wrong verifier burns it too and a code is never
 * tried twice. Any failure is a 400 that issues nothing.
 */
export async function exchangeDeviceCode(
  ctx: AppContext,
  input: { code: string; codeVerifier: string; redirectUri: string },
  userAgent: string | undefined,
): Promise<DeviceToken> {
  const data = await takeSignInRequest<DeviceCodeData>(ctx.db, hashToken(input.code), 'device-code', ctx.clock.now());
  if (!data) throw badRequest('The code is unknown, expired or already used: sign in again from the app');
  if (!verifierMatches(input.codeVerifier, data.codeChallenge))
    throw badRequest('code_verifier does not match the code_challenge of the authorization request');
  if (input.redirectUri !== data.redirectUri)
    throw badRequest('redirect_uri differs from the one of the authorization request');
  // The organization may have turned SSO on since the approval.
  if (await ssoRequiredFor(ctx, data.userId, data.method))
    throw forbidden('Your organization requires single sign-on: sign in with SSO to connect the app');
  const credential = await issueCredential(ctx.db, data.userId, {
    kind: 'device',
    method: data.method,
    now: ctx.clock.now(),
    label: data.deviceName ?? 'Desktop app',
    userAgent,
  });
  return {
    token: credential.token,
    tokenId: credential.id,
    userId: data.userId,
    expiresAt: credential.expiresAt.toISOString(),
  };
}
