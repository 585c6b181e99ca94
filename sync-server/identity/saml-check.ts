import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import {
  assertionFacts,
  personFromProfile,
  responseIsSigned,
  type AssertionFacts,
  type SamlPerson,
} from './saml-assertion';

/**
 * The XML half of checking an IdP's response: what runs in the verifier's
 * worker thread (saml-worker.ts), never on the event loop. It parses the
 * response, has node-saml check its signatures and audience, and reads what
 * the rest of the checks need (issuer, InResponseTo, times, recipients, the
 * person). Pure: no database, no clock; plain data in and out (it crosses a
 * thread boundary).
 */

/** The service provider's side of one provider: what node-saml is configured with. */
export interface SamlSettings {
  /** This server's ACS URL for the provider (the callback, and the expected Recipient). */
  acsURL: string;
  /** This server's SP entity ID for the provider (the issuer of requests, the expected Audience). */
  entityID: string;
  /** The IdP's signing certificate (PEM). */
  idpCert: string;
}

/** node-saml's configuration for one provider (shared by the start, the metadata and the check). */
export function samlConfig(
  settings: SamlSettings,
  options: { entryPoint?: string; requestId?: string; wantResponseSigned?: boolean } = {},
): SamlConfig {
  return {
    callbackUrl: settings.acsURL,
    issuer: settings.entityID,
    audience: settings.entityID,
    entryPoint: options.entryPoint,
    idpCert: settings.idpCert,
    // The assertion must be signed by the IdP's key; a signed response must be too (see checkSamlResponse).
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: options.wantResponseSigned ?? false,
    // Times are checked in saml.ts against this server's clock (ctx.clock).
    acceptedClockSkewMs: -1,
    // InResponseTo is checked against sign_in_requests in saml.ts (one take, any process).
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    ...(options.requestId ? { generateUniqueId: () => options.requestId! } : {}),
  };
}

/** What the check needs: the provider's settings and the form's base64 `SAMLResponse` (already pre-parsed). */
export interface SamlCheckInput extends SamlSettings {
  samlResponse: string;
}

/** A response whose signatures verified: what the assertion says (checked against the clock and database after). */
export interface CheckedSamlResponse {
  ok: true;
  issuer: string | undefined;
  inResponseTo: string | undefined;
  facts: AssertionFacts;
  person: SamlPerson | undefined;
}

/** A refused response: the status and the person's message (no XML, no expected values). */
export interface RefusedSamlResponse {
  ok: false;
  status: 400 | 403;
  message: string;
}

export type SamlCheckResult = CheckedSamlResponse | RefusedSamlResponse;

const refused = (status: 400 | 403, message: string): RefusedSamlResponse => ({ ok: false, status, message });
const NOT_SAML = refused(400, 'This is not a valid SAML response.');

/** Words node-saml's refusal for a person, without echoing XML or expected values. */
function refusalOf(err: unknown): RefusedSamlResponse {
  const message = err instanceof Error ? err.message : String(err);
  if (/signature/i.test(message))
    return refused(
      403,
      "The identity provider's response is not signed with this provider's certificate (or not signed at all).",
    );
  if (/audience/i.test(message))
    return refused(403, 'The SAML assertion is addressed to another service (audience mismatch).');
  if (/SAML provider returned/i.test(message))
    return refused(403, 'The identity provider did not sign you in (it answered with an error).');
  return NOT_SAML;
}

/** Checks one response's XML and signatures. Never throws: every failure is a RefusedSamlResponse. */
export async function checkSamlResponse(input: SamlCheckInput): Promise<SamlCheckResult> {
  try {
    const xml = Buffer.from(input.samlResponse, 'base64').toString('utf8');
    const signedResponse = responseIsSigned(xml);
    if (signedResponse === undefined) return NOT_SAML;
    let profile;
    try {
      // A response that carries a signature must carry a valid one, as its assertion must.
      const sp = new SAML(samlConfig(input, { wantResponseSigned: signedResponse }));
      ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: input.samlResponse }));
    } catch (err) {
      return refusalOf(err);
    }
    if (!profile) return refused(400, 'The SAML response holds no assertion.');
    return {
      ok: true,
      issuer: typeof profile.issuer === 'string' ? profile.issuer : undefined,
      inResponseTo: typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined,
      facts: assertionFacts(profile),
      person: personFromProfile(profile),
    };
  } catch {
    // Anything else (a stack overflow on absurd nesting, say) is a response this server cannot read.
    return NOT_SAML;
  }
}
