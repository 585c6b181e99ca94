import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRoleOrGuest } from '@gitbook/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, raw, type RawResponse } from '../helpers/api';
import { CookieJar, newKeyPair, TestIdp, type KeyPair, type ResponseOptions } from '../helpers/saml-idp';
import { mustUseSso } from '../../sync-server/identity/accounts';
import { createUser, issueToken } from '../../sync-server/identity/users';
import { approveDomain } from '../helpers/domains';

/**
 * SAML sign-in end to end over HTTP, against an IdP stand-in built on samlify
 * with its own key: a valid response signs in and provisions the member; every
 * kind of bad response is refused with a clear 4xx and provisions nothing.
 */

let t: TestServer;
let idp: TestIdp;
let otherKeys: KeyPair;
let orgId: string;
let teamId: string;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

beforeAll(async () => {
  t = await startTestServer();
  idp = new TestIdp(await newKeyPair());
  otherKeys = await newKeyPair('Someone else');
  orgId = (await t.client.orgs.createOrganization({ title: 'SAML Org', emailDomains: ['corp.example'] })).data.id;
  // The organization owns corp.example (its IdP may vouch only for addresses there).
  await approveDomain(t, orgId, 'corp.example');
  teamId = (await t.client.orgs.createOrganizationTeam(orgId, { title: 'Everyone' })).data.id;
  provider = (
    await t.client.orgs.createOrganizationSamlProvider(orgId, {
      label: 'Corp IdP',
      entityID: idp.entityID,
      ssoURL: 'https://idp.example.test/sso',
      certificate: idp.keys.cert,
      defaultTeam: teamId,
      defaultRole: 'edit' as MemberRoleOrGuest,
    })
  ).data;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const db = () => t.server.ctx.db;
let people = 0;
const newEmail = () => `person${++people}.${Date.now().toString(36)}@corp.example`;

/**
 * The browser these tests sign in with: it keeps the cookie the start sets (which binds a sign-in
 * to its browser) and sends it with the response to the ACS.
 */
const browser = new CookieJar();

/** Starts a sign-in as a browser would: the start URL answers a redirect to the IdP carrying an AuthnRequest. */
async function start(next = '/app/s/somewhere') {
  const res = await browser.fetch(`${provider.service.startURL}?next=${encodeURIComponent(next)}`);
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith('https://idp.example.test/sso?SAMLRequest=')).toBe(true);
  return idp.readRequest(location);
}

/** Posts a SAMLResponse form to the ACS (JSON errors asked for, so refusals are checked in GitBook's shape). */
async function post(samlResponse: string, accept = 'application/json'): Promise<Response> {
  return browser.fetch(provider.service.acsURL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
  });
}

async function asRaw(res: Response): Promise<RawResponse> {
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
}

/** A fresh sign-in answered with `options` (InResponseTo = the request's unless said otherwise). */
async function signIn(options: ResponseOptions = {}) {
  const request = await start();
  const response = idp.response(provider.service.entityID, provider.service.acsURL, {
    inResponseTo: request.id,
    ...options,
  });
  return { res: await post(response), response, request };
}

/** A user of corp.example, the domain the organization verified, with an API token. */
async function corpUser(displayName: string) {
  const email = newEmail();
  const id = await createUser(db(), { displayName, email });
  return { id, email, token: await issueToken(db(), id, 'test') };
}

const userByEmail = async (email: string) =>
  (
    await db().query<{ id: string; display_name: string }>('SELECT id, display_name FROM users WHERE email = $1', [
      email,
    ])
  )[0];

async function expectRefused(options: ResponseOptions, status: number, pattern: RegExp) {
  const email = newEmail();
  const { res } = await signIn({ email, ...options });
  expectError(await asRaw(res), status, pattern);
  expect(res.headers.get('set-cookie')).toBeNull();
  // Nothing provisioned: no user, so no membership either.
  expect(await userByEmail(email)).toBeUndefined();
}

describe('SAML sign-in', () => {
  it('the AuthnRequest names this server as issuer and its ACS URL', async () => {
    const request = await start();
    expect(request.issuer).toBe(provider.service.entityID);
    expect(request.acsURL).toBe(provider.service.acsURL);
    expect(request.id).toMatch(/^_[0-9a-f]{40}$/);
  });

  it('a valid response signs in (session cookie, 303 to next) and provisions the member', async () => {
    const email = newEmail();
    const { res } = await signIn({ email, displayName: 'Ada Lovelace' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/s/somewhere');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^folio_session=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);

    const me = await raw(t, 'GET', '/v1/user', { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, displayName: 'Ada Lovelace' });

    const user = (await userByEmail(email))!;
    const member = await db().query<{ role: string; sso: boolean }>(
      'SELECT role, sso FROM members WHERE organization_id = $1 AND user_id = $2',
      [orgId, user.id],
    );
    expect(member).toEqual([{ role: 'edit', sso: true }]);
    const team = await db().query('SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, user.id]);
    expect(team).toHaveLength(1);
    const session = await db().query<{ kind: string; sign_in_method: string }>(
      'SELECT kind, sign_in_method FROM api_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(session).toEqual([{ kind: 'session', sign_in_method: 'saml' }]);
  });

  it('signs in an existing user with that email, adds the membership and keeps an existing role', async () => {
    const existing = await corpUser('Existing Person');
    const { res } = await signIn({ email: existing.email });
    expect(res.status).toBe(303);
    const rows = await db().query<{ role: string; sso: boolean }>(
      'SELECT role, sso FROM members WHERE organization_id = $1 AND user_id = $2',
      [orgId, existing.id],
    );
    expect(rows).toEqual([{ role: 'edit', sso: true }]);
    await db().query("UPDATE members SET role = 'admin' WHERE organization_id = $1 AND user_id = $2", [
      orgId,
      existing.id,
    ]);
    expect((await signIn({ email: existing.email })).res.status).toBe(303);
    const after = await db().query<{ role: string }>(
      'SELECT role FROM members WHERE organization_id = $1 AND user_id = $2',
      [orgId, existing.id],
    );
    expect(after).toEqual([{ role: 'admin' }]);
    expect((await db().query('SELECT 1 FROM users WHERE email = $1', [existing.email])).length).toBe(1);
  });

  it('reads the email from common attribute names, and from an emailAddress NameID', async () => {
    const claim = newEmail();
    const viaClaim = await signIn({
      email: 'ignored@corp.example',
      nameID: 'opaque-id-1',
      nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': claim,
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname': 'Grace',
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Hopper',
      },
    });
    expect(viaClaim.res.status).toBe(303);
    expect((await userByEmail(claim))?.display_name).toBe('Grace Hopper');

    const nameId = newEmail();
    const viaNameId = await signIn({ email: nameId, attributes: {} });
    expect(viaNameId.res.status).toBe(303);
    expect(await userByEmail(nameId)).toBeDefined();

    await expectRefused(
      {
        nameID: 'opaque-id-2',
        nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: { displayName: 'No Mail' },
      },
      400,
      /no email address/,
    );
  });

  it('refuses a response signed by another key', async () => {
    await expectRefused({ signWith: otherKeys }, 403, /not signed with this provider's certificate/);
  });

  it('refuses a good assertion inside a response signed by another key', async () => {
    await expectRefused({ responseSignedWith: otherKeys }, 403, /not signed with this provider's certificate/);
  });

  it('accepts a response signed around a signed assertion by the same key', async () => {
    const { res } = await signIn({ email: newEmail(), sign: 'both' });
    expect(res.status).toBe(303);
  });

  it('refuses an unsigned response', async () => {
    await expectRefused({ sign: 'none' }, 403, /not signed/);
  });

  it('refuses an assertion for another audience', async () => {
    await expectRefused({ audience: 'https://some-other-service.example/metadata' }, 403, /audience/);
  });

  it('refuses an assertion for another ACS address (Recipient)', async () => {
    await expectRefused({ recipient: 'https://evil.example/acs' }, 403, /Recipient/);
  });

  it('refuses an assertion from another issuer', async () => {
    await expectRefused({ issuer: 'https://another-idp.example' }, 403, /another identity provider/);
  });

  it('refuses an expired assertion, and one not valid yet (beyond the clock skew)', async () => {
    const past = new Date(t.clock.now().getTime() - 10 * 60_000);
    await expectRefused({ notOnOrAfter: past }, 403, /expired/);
    const future = new Date(t.clock.now().getTime() + 10 * 60_000);
    await expectRefused({ notBefore: future }, 403, /not valid yet/);
  });

  it("checks times on the server's clock: a response kept past its validity is refused", async () => {
    const email = newEmail();
    const request = await start();
    const response = idp.response(provider.service.entityID, provider.service.acsURL, {
      email,
      inResponseTo: request.id,
      notOnOrAfter: new Date(t.clock.now().getTime() + 60_000),
    });
    t.clock.advance(4 * 60_000); // past NotOnOrAfter plus the two-minute skew
    try {
      expectError(await asRaw(await post(response)), 403, /expired/);
    } finally {
      t.clock.advance(-4 * 60_000);
    }
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses a replayed response', async () => {
    const email = newEmail();
    const first = await signIn({ email });
    expect(first.res.status).toBe(303);
    const userId = (await userByEmail(email))!.id;
    const sessionsBefore = await db().query('SELECT 1 FROM api_tokens WHERE user_id = $1', [userId]);
    expectError(await asRaw(await post(first.response)), 403, /already been used/);
    const sessionsAfter = await db().query('SELECT 1 FROM api_tokens WHERE user_id = $1', [userId]);
    expect(sessionsAfter.length).toBe(sessionsBefore.length);
  });

  it('refuses an unsolicited response: no InResponseTo, or one this server never issued', async () => {
    await expectRefused({ inResponseTo: null }, 403, /Unsolicited/);
    await expectRefused({ inResponseTo: '_0123456789abcdef0123456789abcdef01234567' }, 403, /Unsolicited/);
  });

  it('a request is answered once: a second response to it is refused', async () => {
    const request = await start();
    const a = idp.response(provider.service.entityID, provider.service.acsURL, {
      email: newEmail(),
      inResponseTo: request.id,
    });
    expect((await post(a)).status).toBe(303);
    const email = newEmail();
    const b = idp.response(provider.service.entityID, provider.service.acsURL, { email, inResponseTo: request.id });
    expectError(await asRaw(await post(b)), 403, /Unsolicited/);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses garbage and a missing SAMLResponse with a 400, and answers browsers with a page', async () => {
    expectError(await asRaw(await post(Buffer.from('<hello/>').toString('base64'))), 400, /not a valid SAML response/);
    const empty = await fetch(provider.service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'RelayState=x',
    });
    expectError(await asRaw(empty), 400, /SAMLResponse/);
    const page = await post(
      idp.response(provider.service.entityID, provider.service.acsURL, { sign: 'none' }),
      'text/html',
    );
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Sign-in failed');
  });

  it('"Continue with SSO" finds the provider by the email domain', async () => {
    const res = await fetch(`${t.url}/auth/sso/start?email=Someone@CORP.example&next=/app/x`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${provider.service.startURL}?next=%2Fapp%2Fx`);
    const none = await raw(t, 'GET', '/auth/sso/start?email=someone@elsewhere.example', {
      headers: { accept: 'application/json' },
    });
    expectError(none, 404, /elsewhere\.example/);
    expectError(await raw(t, 'GET', '/auth/sso/start?email=nobody', { headers: { accept: 'application/json' } }), 400);
  });

  it("SSO-only: with the organization's sso on, its SSO members must use SSO", async () => {
    const email = newEmail();
    expect((await signIn({ email })).res.status).toBe(303);
    const ssoUser = (await userByEmail(email))!.id;
    const plain = await corpUser('Plain Member');
    await t.client.orgs
      .createOrganizationInvite(orgId, { role: 'read' as MemberRoleOrGuest })
      .then((inv) => t.clientFor(plain.token).orgs.joinOrganizationWithInvite(orgId, inv.data.id));
    expect(await mustUseSso(db(), ssoUser)).toBe(false); // the organization does not enforce SSO yet

    await t.client.orgs.updateOrganizationById(orgId, { sso: true });
    expect(await mustUseSso(db(), ssoUser)).toBe(true);
    expect(await mustUseSso(db(), plain.id)).toBe(false);

    // An admin flags another member as an SSO member: from then on SSO only.
    const flagged = await t.client.orgs.setUserAsSsoMemberForOrganization(orgId, plain.id);
    expect(flagged.data.sso).toBe(true);
    expect(await mustUseSso(db(), plain.id)).toBe(true);

    // Such a member still signs in through SAML.
    expect((await signIn({ email })).res.status).toBe(303);

    await t.client.orgs.updateOrganizationById(orgId, { sso: false });
    expect(await mustUseSso(db(), ssoUser)).toBe(false);
  });
});
