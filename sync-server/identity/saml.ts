import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Queryable } from '../store/db';
import { recordAssertionOnce, type SamlProviderRow } from '../store/saml-providers';
import { saveSignInRequest, takeSignInRequest } from '../store/sign-in-requests';
import { assertionFacts, personFromProfile, responseIsSigned, type SamlPerson } from './saml-assertion';
import { certificateAsPem } from './saml-certificate';
import { serviceProviderUrls } from './saml-urls';

/**
 * The SAML 2.0 service provider (SP) of one provider row, on
 * @node-saml/node-saml: metadata, the AuthnRequest (HTTP-Redirect binding)
 * and the check of the IdP's response (HTTP-POST binding). node-saml checks
 * the XML signatures and the audience; the rest is checked here, against this
 * server's clock and database: validity times, the request the response
 * answers (taken once), and the assertion id (accepted once, in any process).
 */

/** Clock difference tolerated between the IdP and this server. */
export const SAML_CLOCK_SKEW_MS = 2 * 60_000;
/** How long a person has at their IdP between the redirect and the response. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** An assertion id is remembered at most this long (an assertion valid longer is refused). */
const MAX_ASSERTION_LIFETIME_MS = 24 * 3600_000;

/** A refused sign-in: the HTTP status and a message for the person (no secrets, no XML). */
export class SamlRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** What a sign-in request stores until the response comes back. */
interface PendingSamlRequest {
  providerId: string;
  next?: string;
}

function spFor(root: string, provider: SamlProviderRow, options: { requestId?: string; wantResponseSigned?: boolean }) {
  const sp = serviceProviderUrls(root, provider.id);
  const pem = provider.certificate ? certificateAsPem(provider.certificate) : undefined;
  return new SAML({
    callbackUrl: sp.acsURL,
    issuer: sp.entityID,
    audience: sp.entityID,
    entryPoint: provider.sso_url ?? undefined,
    // node-saml refuses to start without one; an unconfigured provider never reaches a check.
    idpCert: pem ?? 'unconfigured',
    // The assertion must be signed by the IdP's key; a signed response must be too (see consume).
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: options.wantResponseSigned ?? false,
    // Times are checked in saml-assertion.ts against this server's clock (ctx.clock).
    acceptedClockSkewMs: -1,
    // InResponseTo is checked against sign_in_requests below (one take, any process).
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    ...(options.requestId ? { generateUniqueId: () => options.requestId! } : {}),
  });
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
 * to redirect the browser to.
 */
export async function startSamlSignIn(
  db: Queryable,
  root: string,
  provider: SamlProviderRow,
  next: string | undefined,
  now: Date,
): Promise<string> {
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
  return url;
}

/** Words node-saml's refusal for a person, without echoing XML or expected values. */
function refusalOf(err: unknown): SamlRefusal {
  const message = err instanceof Error ? err.message : String(err);
  if (/signature/i.test(message))
    return new SamlRefusal(
      403,
      "The identity provider's response is not signed with this provider's certificate (or not signed at all).",
    );
  if (/audience/i.test(message))
    return new SamlRefusal(403, 'The SAML assertion is addressed to another service (audience mismatch).');
  if (/SAML provider returned/i.test(message))
    return new SamlRefusal(403, 'The identity provider did not sign you in (it answered with an error).');
  return new SamlRefusal(400, 'This is not a valid SAML response.');
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
): Promise<{ person: SamlPerson; next: string | undefined }> {
  if (!canSignIn(provider)) throw new SamlRefusal(409, 'This single sign-on provider is not fully configured.');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const signedResponse = responseIsSigned(xml);
  if (signedResponse === undefined) throw new SamlRefusal(400, 'This is not a valid SAML response.');
  let profile;
  try {
    // A response that carries a signature must carry a valid one, as its assertion must.
    const sp = spFor(root, provider, { wantResponseSigned: signedResponse });
    ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw refusalOf(err);
  }
  if (!profile) throw new SamlRefusal(400, 'The SAML response holds no assertion.');
  if (profile.issuer !== provider.entity_id)
    throw new SamlRefusal(403, 'The SAML assertion was issued by another identity provider than this one.');

  const facts = assertionFacts(profile);
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

  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
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
  const pending = await takeSignInRequest<PendingSamlRequest>(db, inResponseTo, 'saml', now);
  if (!pending || pending.providerId !== provider.id)
    throw new SamlRefusal(
      403,
      'Unsolicited SAML response: it answers no sign-in this server started (or that sign-in expired or was used).',
    );

  const person = personFromProfile(profile);
  if (!person)
    throw new SamlRefusal(
      400,
      'The SAML assertion carries no email address (send an "email" attribute, or an emailAddress NameID).',
    );
  return { person, next: pending.next };
}
