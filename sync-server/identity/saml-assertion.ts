import { DOMParser } from '@xmldom/xmldom';
import type { Profile } from '@node-saml/node-saml';

/** Reading a SAML response and the assertion node-saml verified: signature presence, times, ids, the person. */

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * Whether the response itself (not only its assertion) carries a signature;
 * undefined when the text is not a SAML Response. Only used to be stricter:
 * a signed response must then verify too (a signature hidden from this check
 * still leaves the assertion's signature required).
 */
export function responseIsSigned(xml: string): boolean | undefined {
  let root;
  try {
    const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } });
    root = doc.parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return undefined;
  }
  if (!root || root.localName !== 'Response' || root.namespaceURI !== SAMLP) return undefined;
  for (let node = root.firstChild; node; node = node.nextSibling) {
    const el = node as unknown as { localName?: string; namespaceURI?: string };
    if (el.localName === 'Signature' && el.namespaceURI === DSIG) return true;
  }
  return false;
}

/** What the checks read from the verified assertion (times as epoch milliseconds). */
export interface AssertionFacts {
  id: string | undefined;
  notBefore: number | undefined;
  /** The earliest NotOnOrAfter of the Conditions and the bearer subject confirmation. */
  notOnOrAfter: number | undefined;
  /** Every SubjectConfirmationData Recipient (each must be our ACS URL). */
  recipients: string[];
  /** Every SubjectConfirmationData InResponseTo (each must be the response's). */
  subjectInResponseTo: string[];
}

type Xml2js = { $?: Record<string, string> } & Record<string, unknown>;
const children = (node: Xml2js | undefined, name: string): Xml2js[] =>
  Array.isArray(node?.[name]) ? (node[name] as Xml2js[]) : [];
const time = (value: string | undefined): number | undefined => {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms; // an unreadable time is treated as long past
};

export function assertionFacts(profile: Profile): AssertionFacts {
  const assertion = (profile.getAssertion?.() as { Assertion?: Xml2js } | undefined)?.Assertion;
  const conditions = children(assertion, 'Conditions')[0];
  const confirmations = children(assertion, 'Subject').flatMap((s) =>
    children(s, 'SubjectConfirmation').flatMap((c) => children(c, 'SubjectConfirmationData')),
  );
  const notBefore = [conditions?.$?.NotBefore, ...confirmations.map((c) => c.$?.NotBefore)]
    .map(time)
    .filter((t): t is number => t !== undefined);
  const notOnOrAfter = [conditions?.$?.NotOnOrAfter, ...confirmations.map((c) => c.$?.NotOnOrAfter)]
    .map(time)
    .filter((t): t is number => t !== undefined);
  return {
    id: assertion?.$?.ID,
    notBefore: notBefore.length ? Math.max(...notBefore) : undefined,
    notOnOrAfter: notOnOrAfter.length ? Math.min(...notOnOrAfter) : undefined,
    recipients: confirmations.map((c) => c.$?.Recipient).filter((r): r is string => typeof r === 'string'),
    subjectInResponseTo: confirmations.map((c) => c.$?.InResponseTo).filter((r): r is string => typeof r === 'string'),
  };
}

/** The person an assertion vouches for. */
export interface SamlPerson {
  email: string;
  displayName?: string;
}

/** Attribute names IdPs use for the email (Okta, Google, Entra ID / ADFS, Shibboleth, Keycloak). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'cn',
];
const GIVEN_ATTRIBUTES = [
  'givenName',
  'firstName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'urn:oid:2.5.4.42',
];
const SURNAME_ATTRIBUTES = [
  'sn',
  'surname',
  'lastName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  'urn:oid:2.5.4.4',
];
const EMAIL_NAMEID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function attribute(attributes: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const raw = attributes[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** The email (an attribute, else an emailAddress NameID) and display name; undefined without an email. */
export function personFromProfile(profile: Profile): SamlPerson | undefined {
  const attributes = (profile.attributes as Record<string, unknown> | undefined) ?? {};
  let email = attribute(attributes, EMAIL_ATTRIBUTES);
  if (!email && profile.nameIDFormat === EMAIL_NAMEID) email = profile.nameID?.trim();
  if (!email || !EMAIL.test(email) || email.length > 320) return undefined;
  const given = attribute(attributes, GIVEN_ATTRIBUTES);
  const surname = attribute(attributes, SURNAME_ATTRIBUTES);
  const displayName =
    attribute(attributes, NAME_ATTRIBUTES) ?? ([given, surname].filter(Boolean).join(' ') || undefined);
  return { email: email.toLowerCase(), ...(displayName ? { displayName: displayName.slice(0, 200) } : {}) };
}
