import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as samlify from 'samlify';
import { generate } from 'selfsigned';

/**
 * A SAML identity provider stand-in built on samlify (an independent SAML
 * library, in the IdP role): its own RSA key and self-signed certificate made
 * per test file, a parser of the server's AuthnRequests (HTTP-Redirect), and
 * responses signed by samlify's XML-DSig code, with every field a test may
 * want wrong (audience, times, InResponseTo, signing key, no signature).
 * It also serves a tiny login page on 127.0.0.1 for browser tests: the
 * request arrives there and a button posts the SAMLResponse form to the ACS.
 */

// samlify refuses to parse without an XML schema validator. This stand-in
// parses only the AuthnRequests of the server under test, so it accepts any
// well-formed XML: the server's own checks are what the tests exercise.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A signing key and its self-signed certificate (PEM; `certBody` is the base64 body metadata shows). */
export interface KeyPair {
  privateKey: string;
  cert: string;
  certBody: string;
}

export async function newKeyPair(commonName = 'Folio test IdP'): Promise<KeyPair> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  const certBody = pems.cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return { privateKey: pems.private, cert: pems.cert, certBody };
}

/** Who signs in, and what the response says (defaults: a valid, signed, solicited response). */
export interface ResponseOptions {
  email?: string;
  displayName?: string;
  /** Attributes as sent (name -> value); replaces the default email/displayName attributes. */
  attributes?: Record<string, string>;
  /** NameID (default: the email, in the emailAddress format). */
  nameID?: string;
  nameIDFormat?: string;
  /** The AuthnRequest ID answered; null = none (an unsolicited, IdP-initiated response). */
  inResponseTo?: string | null;
  audience?: string;
  recipient?: string;
  issuer?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Which signatures: the assertion (default), the response too, or none at all. */
  sign?: 'assertion' | 'both' | 'none';
  /** Sign with this key instead of the IdP's own (a forged response). */
  signWith?: KeyPair;
  /** Sign the assertion with the IdP's key but the response around it with this one. */
  responseSignedWith?: KeyPair;
}

/**
 * One browser's cookies for the sign-in flow (fetch keeps none): what the
 * server sets (the pending SAML sign-in cookie of the start, the session of
 * the ACS) rides along on the next request, as a browser would send it. A
 * test jar: paths and expiry are not modelled, only a cookie's removal.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The `cookie` request header (undefined when the jar is empty). */
  header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined;
  }

  /** Value of one cookie. */
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Keeps what a response set (a cookie set empty or with Max-Age=0 is removed). */
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** fetch with this browser's cookies, keeping what the response sets. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header();
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { redirect: 'manual', ...init, headers });
    this.take(res);
    return res;
  }
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export class TestIdp {
  readonly entityID: string;
  private server: Server | undefined;
  private baseUrl = '';
  private readonly idp: ReturnType<typeof samlify.IdentityProvider>;
  /** Who the login page signs in (browser tests). */
  user = { email: 'jane@example.com', displayName: 'Jane Doe' };

  constructor(
    readonly keys: KeyPair,
    entityID = 'https://idp.example.test/metadata',
  ) {
    this.entityID = entityID;
    this.idp = samlify.IdentityProvider({
      entityID,
      privateKey: keys.privateKey,
      signingCert: keys.cert,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${entityID}/sso` }],
      wantAuthnRequestsSigned: false,
    });
  }

  /** The IdP's single sign-on URL (the login page, once listening). */
  get ssoURL(): string {
    return `${this.baseUrl}/sso`;
  }

  /**
   * Reads the AuthnRequest of a redirect to the IdP (the `Location` the
   * server's start URL answered) with samlify: its ID, the ACS URL and the
   * issuer (the server's entity ID).
   */
  async readRequest(location: string): Promise<{ id: string; acsURL: string; issuer: string; relayState: string }> {
    const url = new URL(location);
    const query = Object.fromEntries(url.searchParams);
    const sp = samlify.ServiceProvider({
      entityID: 'unused',
      assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: 'http://unused' }],
    });
    const parsed = await this.idp.parseLoginRequest(sp, 'redirect', { query, octetString: '' });
    const request = (parsed.extract as { request: { id: string; assertionConsumerServiceUrl: string } }).request;
    const issuer = (parsed.extract as { issuer: string }).issuer;
    return {
      id: request.id,
      acsURL: request.assertionConsumerServiceUrl,
      issuer,
      relayState: query.RelayState ?? '',
    };
  }

  /** A SAMLResponse (base64) for the SP at `acsURL` with entity ID `spEntityID`. */
  response(spEntityID: string, acsURL: string, options: ResponseOptions = {}): string {
    const now = Date.now();
    const email = options.email ?? this.user.email;
    const attributes = options.attributes ?? {
      email,
      displayName: options.displayName ?? this.user.displayName,
    };
    const attributeXml = Object.keys(attributes).length
      ? `<saml:AttributeStatement>${Object.entries(attributes)
          .map(
            ([name, value]) =>
              `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
          )
          .join('')}</saml:AttributeStatement>`
      : '';
    const authn = `<saml:AuthnStatement AuthnInstant="${new Date(now).toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const inResponseTo = options.inResponseTo ?? '';
    let template = samlify.SamlLib.defaultLoginResponseTemplate.context
      .replace('{AuthnStatement}', authn)
      .replace('{AttributeStatement}', attributeXml);
    // An unsolicited response has no InResponseTo at all (an empty attribute would be a different mistake).
    if (!inResponseTo) template = template.replace(/ InResponseTo="\{InResponseTo\}"/g, '');
    const notOnOrAfter = (options.notOnOrAfter ?? new Date(now + 5 * 60_000)).toISOString();
    const xml = samlify.SamlLib.replaceTagsByValue(template, {
      ID: `_${randomUUID()}`,
      AssertionID: `_${randomUUID()}`,
      Destination: acsURL,
      Audience: options.audience ?? spEntityID,
      SubjectRecipient: options.recipient ?? acsURL,
      Issuer: options.issuer ?? this.entityID,
      IssueInstant: new Date(now).toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: (options.notBefore ?? new Date(now - 60_000)).toISOString(),
      ConditionsNotOnOrAfter: notOnOrAfter,
      SubjectConfirmationDataNotOnOrAfter: notOnOrAfter,
      NameIDFormat: options.nameIDFormat ?? EMAIL_FORMAT,
      NameID: options.nameID ?? email,
      InResponseTo: inResponseTo,
    });
    const sign = options.sign ?? 'assertion';
    if (sign === 'none') return Buffer.from(xml).toString('base64');
    const key = options.signWith ?? this.keys;
    let signed = samlify.SamlLib.constructSAMLSignature({
      rawSamlMessage: xml,
      referenceTagXPath: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']",
      privateKey: key.privateKey,
      signingCert: key.certBody,
      signatureAlgorithm: RSA_SHA256,
      isBase64Output: false,
      signatureConfig: {
        prefix: 'ds',
        location: {
          reference: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
          action: 'after',
        },
      },
    });
    const outer = options.responseSignedWith ?? (sign === 'both' ? key : undefined);
    if (outer)
      signed = samlify.SamlLib.constructSAMLSignature({
        rawSamlMessage: signed,
        isMessageSigned: true,
        privateKey: outer.privateKey,
        signingCert: outer.certBody,
        signatureAlgorithm: RSA_SHA256,
        isBase64Output: false,
        signatureConfig: {
          prefix: 'ds',
          location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' },
        },
      });
    return Buffer.from(signed).toString('base64');
  }

  /**
   * Serves the login page on 127.0.0.1: GET /sso?SAMLRequest=… shows who will
   * be signed in and a button that posts a signed response to the request's
   * ACS URL (the SP entity ID is the issuer of the request).
   */
  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', this.baseUrl);
        if (url.pathname !== '/sso') {
          res.writeHead(404).end('not found');
          return;
        }
        try {
          const request = await this.readRequest(url.toString());
          const samlResponse = this.response(request.issuer, request.acsURL, { inResponseTo: request.id });
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test IdP</title>
<style>body{font:16px system-ui;margin:48px auto;max-width:420px;padding:0 16px}button{font:inherit;padding:10px 16px}</style>
</head><body><h1>Test identity provider</h1>
<p>Signing in as <strong>${escapeXml(this.user.displayName)}</strong> (${escapeXml(this.user.email)})</p>
<form method="post" action="${escapeXml(request.acsURL)}">
<input type="hidden" name="SAMLResponse" value="${samlResponse}">
${request.relayState ? `<input type="hidden" name="RelayState" value="${escapeXml(request.relayState)}">` : ''}
<button type="submit">Continue</button></form></body></html>`);
        } catch (err) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request: ${String(err)}`);
        }
      })();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
