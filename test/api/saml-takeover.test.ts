import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRoleOrGuest } from '@gitbook/api';
import { createUser, issueToken } from '../../sync-server/identity/users';
import { expectError, newUser, raw } from '../helpers/api';
import { approveDomain } from '../helpers/domains';
import { CookieJar, newKeyPair, TestIdp } from '../helpers/saml-idp';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The account takeover of issue 26: anyone may create an organization and
 * register a SAML provider with a key of their own, so a valid signature
 * proves nothing about whose address an assertion names. An attacker's
 * organization, its IdP stand-in signing an assertion for the victim's
 * address, must get no session and no membership, whether it declared the
 * victim's domain (unproved) or proved a domain of its own.
 */

let t: TestServer;
let attackerIdp: TestIdp;
let victim: { id: string; email: string; token: string };
let evilOrgId: string;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.ctx.db;
  const victimId = await createUser(db, { displayName: 'Victim', email: 'ceo@victim.example' });
  victim = { id: victimId, email: 'ceo@victim.example', token: await issueToken(db, victimId, 'test') };

  // The attacker: any signed-in user, an organization of their own claiming the victim's domain.
  const attacker = await newUser(t, 'Attacker');
  const as = t.clientFor(attacker.token);
  evilOrgId = (await as.orgs.createOrganization({ title: 'Evil', emailDomains: ['victim.example', 'evil.example'] }))
    .data.id;
  attackerIdp = new TestIdp(await newKeyPair('Attacker IdP'), 'https://idp.evil.example/metadata');
  provider = (
    await as.orgs.createOrganizationSamlProvider(evilOrgId, {
      label: 'Evil IdP',
      entityID: attackerIdp.entityID,
      ssoURL: 'https://idp.evil.example/sso',
      certificate: attackerIdp.keys.cert,
      defaultRole: 'admin' as MemberRoleOrGuest,
    })
  ).data;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A whole sign-in in one browser: start, the attacker's IdP answers for `email`, the post to the ACS. */
async function signInAs(email: string): Promise<{ res: Response; browser: CookieJar }> {
  const browser = new CookieJar();
  const started = await browser.fetch(provider.service.startURL);
  expect(started.status).toBe(302);
  const request = await attackerIdp.readRequest(started.headers.get('location')!);
  const response = attackerIdp.response(provider.service.entityID, provider.service.acsURL, {
    email,
    inResponseTo: request.id,
  });
  const res = await browser.fetch(provider.service.acsURL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ SAMLResponse: response }),
  });
  return { res, browser };
}

async function expectNoFoothold(res: Response, browser: CookieJar): Promise<void> {
  const body = (await res.json()) as unknown;
  expectError({ status: res.status, body, headers: res.headers }, 403, /domains its organization has verified/);
  expect(browser.get('folio_session')).toBeUndefined();
  const sessions = await t.server.ctx.db.query("SELECT 1 FROM api_tokens WHERE user_id = $1 AND kind <> 'api'", [
    victim.id,
  ]);
  expect(sessions).toEqual([]);
  const memberships = await t.server.ctx.db.query('SELECT 1 FROM members WHERE user_id = $1', [victim.id]);
  expect(memberships).toEqual([]);
}

describe('SAML: identity claims are proved, not trusted', () => {
  it("refuses an attacker's provider signing an assertion for another organization's person", async () => {
    const { res, browser } = await signInAs(victim.email);
    await expectNoFoothold(res, browser);
    // Nor may it create accounts in a domain it has not proved.
    const fresh = await signInAs('new.hire@victim.example');
    expect(fresh.res.status).toBe(403);
    expect(await t.server.ctx.db.query('SELECT 1 FROM users WHERE email = $1', ['new.hire@victim.example'])).toEqual(
      [],
    );
  });

  it('routes nobody of an unproved domain to the claiming organization ("Continue with SSO")', async () => {
    const res = await raw(t, 'GET', `/auth/sso/start?email=${encodeURIComponent(victim.email)}`, {
      headers: { accept: 'application/json' },
    });
    expectError(res, 404, /No organization on this server signs in victim\.example addresses/);
  });

  it("a provider whose organization proved a domain signs in that domain's people, and still nobody else", async () => {
    await approveDomain(t, evilOrgId, 'evil.example');
    const own = await signInAs('staff@evil.example');
    expect(own.res.status).toBe(303);
    expect(own.browser.get('folio_session')).toBeDefined();

    const { res, browser } = await signInAs(victim.email);
    await expectNoFoothold(res, browser);
    // The victim still signs in as themself, with their own token.
    const me = await raw(t, 'GET', '/v1/user', { token: victim.token });
    expect(me.body).toMatchObject({ id: victim.id, email: victim.email });
  });

  it("once the victim's real organization proves its domain, the attacker cannot prove it too", async () => {
    const realOrg = (await t.client.orgs.createOrganization({ title: 'Victim Inc', emailDomains: ['victim.example'] }))
      .data.id;
    await approveDomain(t, realOrg, 'victim.example');
    const attackerAdmin = (
      await t.server.ctx.db.query<{ user_id: string }>(
        "SELECT user_id FROM members WHERE organization_id = $1 AND role = 'admin' LIMIT 1",
        [evilOrgId],
      )
    )[0]!.user_id;
    const attackerToken = await issueToken(t.server.ctx.db, attackerAdmin, 'retry');
    const verify = await raw(t, 'POST', `/v1/orgs/${evilOrgId}/domains/victim.example/verify`, {
      token: attackerToken,
    });
    expectError(verify, 409, /already verified by another organization/);
    const approve = await raw(t, 'POST', `/v1/orgs/${evilOrgId}/domains/victim.example/approve`, {
      token: t.adminToken,
    });
    expectError(approve, 409);
    const { res, browser } = await signInAs(victim.email);
    await expectNoFoothold(res, browser);
  });
});
