import { randomBytes } from 'node:crypto';
import { SAML } from '@node-saml/node-saml';
import type { Queryable } from '../store/db';
import { recordAssertionOnce, type SamlProviderRow } from '../store/saml-providers';
import { saveSignInRequest, takeSignInRequest } from '../store/sign-in-requests';
import type { SamlPerson } from './saml-assertion';
import { certificateAsPem } from './saml-certificate';
import { samlConfig, type SamlSettings } from './saml-check';
import { preparseSamlResponse } from './saml-preparse';
import { SamlRefusal } from './saml-refusal';
import { serviceProviderUrls } from './saml-urls';
import type { SamlVerifier } from './saml-verifier';

export { SamlRefusal } from './saml-refusal';
export { SamlVerifier } from './saml-verifier';

/**
 * The SAML 2.0 service provider (SP) of one provider row, on
 * @node-saml/node-saml: metadata, the AuthnRequest (HTTP-Redirect binding)
 * and the check of the IdP's response (HTTP-POST binding). The response is
 * bounded by a cheap pre-parse (saml-preparse.ts), then node-saml checks the
 * XML signatures and the audience in a worker thread (saml-verifier.ts); the
 * rest is checked here, against this server's clock and database: validity
 * times, the request the response answers (started in this browser, taken
 * once), and the assertion id (accepted once, in any process).
 */

/** Clock difference tolerated between the IdP and this server. */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000;
/** How long a person has at their IdP between the redirect and the response. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** An assertion id is remembered at most this long (an assertion valid longer is refused). */
const MAX_ASSERTION_LIFETIME_MS = 24 * 3600_000;

/** What a sign-in request stores until the response comes back. */
interface PendingSamlRequest {
  providerId: string;
  next?: string;
}

function settingsOf(root: string, provider: SamlProviderRow): SamlSettings {
  const sp = serviceProviderUrls(root, provider.id);
  const pem = provider.certificate ? certificateAsPem(provider.certificate) : undefined;
  // node-saml refuses to start without a certificate; an unconfigured provider never reaches a check.
  return { acsURL: sp.acsURL, entityID: sp.entityID, idpCert: pem ?? 'unconfigured' };
}

function spFor(root: string, provider: SamlProviderRow, options: { requestId?: string }) {
  return new SAML(
    samlConfig(settingsOf(root, provider), { entryPoint: provider.sso_url ?? undefined, requestId: options.requestId }),
  );
}

/** Whether a provider row has what a sign-in needs (its IdP's entity ID, URL and a valid certificate). */
export function canSignIn(provider: SamlProviderRow): boolean {
  return Boolean(
    provider.entity_id && provider.sso_url && provider.certificate && certificateAsPem(provider.certificate),
  );
}

/** The SP metadata XML an IdP administrator imports (entity ID, ACS URL, HTTP-POST binding). */
export function serviceProviderMetadata(root: string, provider: SamlProviderRow): string {
  return spFor(root, provider, {}).generateServiceProviderMetadata(null, null);
}

/**
 * Starts a sign-in: records a one-use request (its id is the AuthnRequest ID
 * the response must answer) with where to go after, and returns the IdP URL
 * to redirect the browser to, and the request id (the caller binds it to the
 * browser with a cookie).
 */
export async function startSamlSignIn(
  db: Queryable,
  root: string,
  provider: SamlProviderRow,
  next: string | undefined,
  now: Date,
): Promise<{ url: string; requestId: string }> {
  if (!canSignIn(provider))
    throw new SamlRefusal(409, 'This single sign-on provider is not fully configured yet: ask your administrator.');
  // An XML ID must not start with a digit.
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const url = await spFor(root, provider, { requestId }).getAuthorizeUrlAsync('', undefined, {});
  const data: PendingSamlRequest = { providerId: provider.id, ...(next ? { next } : {}) };
  await saveSignInRequest(db, {
    id: requestId,
    kind: 'saml',
    data,
    expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_MS),
  });
  return { url, requestId };
}

/** Why a check in the verifier gave no result, for the person. */
function verifierRefusal(outcome: 'timeout' | 'busy' | 'failed'): SamlRefusal {
  if (outcome === 'timeout')
    return new SamlRefusal(503, "Checking the identity provider's response took too long: try again in a moment.");
  if (outcome === 'busy')
    return new SamlRefusal(503, 'The server is busy checking other sign-ins: try again in a moment.');
  return new SamlRefusal(400, 'This SAML response could not be checked: try again, or ask your administrator.');
}

/** How the ACS knows the browser posting a response: whether it started the sign-in the response answers. */
export interface SamlBrowserBinding {
  startedHere(requestId: string): boolean;
}

/**
 * Checks an IdP's response (the form's base64 `SAMLResponse`) for `provider`
 * and returns who it vouches for and where to go next. Throws SamlRefusal for
 * anything wrong; nothing is provisioned by this function.
 */
export async function consumeSamlResponse(
  db: Queryable,
  root: string,
  provider: SamlProviderRow,
  samlResponse: string,
  now: Date,
  { verifier, browser }: { verifier: SamlVerifier; browser: SamlBrowserBinding },
): Promise<{ person: SamlPerson; next: string | undefined }> {
  if (!canSignIn(provider)) throw new SamlRefusal(409, 'This single sign-on provider is not fully configured.');
  // Bounds what reaches the XML stack (size, element count, no DTD) with string scans, before any parser.
  preparseSamlResponse(samlResponse);
  const verified = await verifier.verify({ ...settingsOf(root, provider), samlResponse });
  if (verified.outcome !== 'checked') throw verifierRefusal(verified.outcome);
  const checked = verified.result;
  if (!checked.ok) throw new SamlRefusal(checked.status, checked.message);
  if (checked.issuer !== provider.entity_id)
    throw new SamlRefusal(403, 'The SAML assertion was issued by another identity provider than this one.');

  const { facts, inResponseTo } = checked;
  const sp = serviceProviderUrls(root, provider.id);
  const t = now.getTime();
  if (facts.notBefore !== undefined && t + SAML_CLOCK_SKEW_MS < facts.notBefore)
    throw new SamlRefusal(403, 'The SAML assertion is not valid yet (check the clocks of the server and the IdP).');
  if (facts.notOnOrAfter === undefined) throw new SamlRefusal(403, 'The SAML assertion has no expiry time.');
  if (t - SAML_CLOCK_SKEW_MS >= facts.notOnOrAfter)
    throw new SamlRefusal(403, 'The SAML assertion has expired: sign in again.');
  if (facts.notOnOrAfter - t > MAX_ASSERTION_LIFETIME_MS)
    throw new SamlRefusal(403, 'The SAML assertion is valid for too long (more than a day).');
  if (facts.recipients.some((r) => r !== sp.acsURL))
    throw new SamlRefusal(403, 'The SAML assertion is meant for another address (Recipient).');

  if (!inResponseTo || facts.subjectInResponseTo.some((id) => id !== inResponseTo))
    throw new SamlRefusal(
      403,
      'Unsolicited SAML response: start signing in from this server (IdP-initiated sign-in is not accepted).',
    );
  if (!facts.id) throw new SamlRefusal(400, 'The SAML assertion has no ID.');
  // Recorded before anything else changes: a second use fails here, even in another process.
  const fresh = await recordAssertionOnce(
    db,
    `${provider.id}:${facts.id}`,
    new Date(facts.notOnOrAfter + SAML_CLOCK_SKEW_MS),
  );
  if (!fresh) throw new SamlRefusal(403, 'This SAML assertion has already been used: sign in again.');
  // Login CSRF: another site's page could post, from this browser, a response to a sign-in its
  // author started (their own account). Only the browser holding the start's cookie may finish it.
  // Checked before the request is taken, so a refused post does not use it up.
  if (!browser.startedHere(inResponseTo))
    throw new SamlRefusal(
      403,
      'Unsolicited SAML response: it answers a sign-in that was not started in this browser (or took too long): start again.',
    );
  const pending = await takeSignInRequest<PendingSamlRequest>(db, inResponseTo, 'saml', now);
  if (!pending || pending.providerId !== provider.id)
    throw new SamlRefusal(
      403,
      'Unsolicited SAML response: it answers no sign-in this server started (or that sign-in expired or was used).',
    );

  const person = checked.person;
  if (!person)
    throw new SamlRefusal(
      400,
      'The SAML assertion carries no email address (send an "email" attribute, or an emailAddress NameID).',
    );
  return { person, next: pending.next };
}
