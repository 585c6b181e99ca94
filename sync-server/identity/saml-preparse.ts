import { SamlRefusal } from './saml-refusal';

/**
 * The bounds of what reaches the XML stack from the ACS, checked before any
 * XML parser sees the response: node-saml's signature check (xml-crypto and
 * xpath) is quadratic in the number of nodes (xpath's `nodeOrder`), so an
 * unsigned response of 60,000 empty elements (352 kB) kept the event loop for
 * 50 s. A real IdP response is 5-30 kB and a few hundred elements (one per
 * attribute value: even an Entra ID response with its 150 groups stays far
 * below); these caps leave room for that and bound the worst case to well
 * under a second of one worker thread (identity/saml-verifier.ts).
 */

/** The largest ACS form post (base64 SAMLResponse + RelayState), in bytes: Fastify refuses more (413) unread. */
export const SAML_FORM_LIMIT = 128 * 1024;

/**
 * The most `<` a response may hold: each opens an element, closes one, or
 * starts a comment, CDATA section or processing instruction. The text nodes
 * between them are at most as many again, so this bounds the nodes xpath
 * orders. A response of 3,000 empty elements takes ~0.3-0.6 s to check.
 */
export const SAML_MAX_XML_TAGS = 3_000;

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * The cheap pre-parse of an ACS post's `SAMLResponse`: base64, within the
 * caps, no document type declaration (a SAML message never has one, and DTDs
 * are how entity-expansion attacks start). Returns the XML text; throws
 * SamlRefusal otherwise. Linear string scans only, on the event loop.
 */
export function preparseSamlResponse(samlResponse: string): string {
  if (samlResponse.length > SAML_FORM_LIMIT)
    throw new SamlRefusal(413, `This SAML response is larger than this server accepts (${SAML_FORM_LIMIT / 1024} kB).`);
  if (!BASE64.test(samlResponse)) throw new SamlRefusal(400, 'This is not a valid SAML response (not base64).');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  let tags = 0;
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i + 1))
    if (++tags > SAML_MAX_XML_TAGS)
      throw new SamlRefusal(
        400,
        `This SAML response has too many XML elements (more than ${SAML_MAX_XML_TAGS.toLocaleString('en')}): it is refused unread.`,
      );
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new SamlRefusal(400, 'This SAML response declares a document type (DTD): it is refused unread.');
  return xml;
}
