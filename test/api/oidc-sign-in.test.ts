import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider';
import { HttpBrowser } from '../helpers/http-browser';
import { asRole, expectError, ok, raw } from '../helpers/api';
import { createUser } from '../../sync-server/identity/users';
import { insertMember } from '../../sync-server/store/members';
import { updateOrganizationRow } from '../../sync-server/store/organizations';
import { approveDomain } from '../helpers/domains';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider on
 * 127.0.0.1), through real HTTP: Folio's start redirect, the provider's login
 * and consent pages, the code exchange on Folio's callback.
 */

let idp: TestOidcProvider;
let t: TestServer;
beforeAll(async () => {
  idp = await startOidcProvider({
    alice: { email: 'Alice@Acme.test', email_verified: true, name: 'Alice Acme' },
    nomail: { name: 'No Mail' },
    unverified: { email: 'unverified@acme.test', email_verified: false },
    enforced: { email: 'enforced@corp.test', email_verified: true },
  });
  t = await startTestServer({
    FOLIO_OIDC_ISSUER: idp.issuer,
    FOLIO_OIDC_CLIENT_ID: idp.clientId,
    FOLIO_OIDC_CLIENT_SECRET: idp.clientSecret,
  });
  idp.register(`${t.url}/auth/oidc/callback`);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/**
 * Starts a sign-in at Folio and goes through the provider's pages as `login`;
 * returns the callback URL the provider sends the browser back to (not yet opened).
 */
async function throughProvider(browser: HttpBrowser, login: string, next?: string): Promise<string> {
  const start = await browser.request(`${t.url}/auth/oidc/start${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  expect(start.status).toBe(302);
  const atFolio = (url: string) => url.startsWith(`${t.url}/`);
  let hop = await browser.follow(start.headers.get('location')!, {}, atFolio);
  for (let page = 0; page < 4 && !atFolio(hop.url); page++) {
    expect(hop.response.status, `provider page ${hop.url}`).toBe(200);
    const html = await hop.response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const posted = await browser.submitForm(hop.url, html, prompt === 'login' ? { login, password: 'any' } : {});
    const next = new URL(posted.headers.get('location')!, hop.url).href;
    hop = atFolio(next) ? { url: next, response: posted } : await browser.follow(next, {}, atFolio);
  }
  expect(hop.url.startsWith(`${t.url}/auth/oidc/callback?`), hop.url).toBe(true);
  return hop.url;
}

/** The user the browser's session cookie signs in, or the status when it signs in nobody. */
async function sessionUser(browser: HttpBrowser): Promise<{ email: string; displayName: string } | number> {
  const res = await browser.request(`${t.url}/v1/user`, { headers: { 'sec-fetch-site': 'same-origin' } });
  return res.status === 200 ? ((await res.json()) as { email: string; displayName: string }) : res.status;
}

const sessionsOf = async (email: string) =>
  t.server.ctx.db.query<{ kind: string; sign_in_method: string }>(
    `SELECT t.kind, t.sign_in_method FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1 AND t.kind = 'session'`,
    [email],
  );

describe('OpenID Connect sign-in', () => {
  it('signs a new person in, makes the account and joins the organizations of their email domain', async () => {
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Acme' }), 201);
    await ok(
      'updateOrganizationById',
      t.client.orgs.updateOrganizationById(org.id, { emailDomains: ['acme.test'], defaultRole: asRole('edit') }),
    );
    await approveDomain(t, org.id, 'acme.test');
    const other = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Elsewhere' }), 201);

    const browser = new HttpBrowser();
    const callback = await throughProvider(browser, 'alice', '/app/s/welcome');
    const res = await browser.request(callback);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/s/welcome');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(await sessionUser(browser)).toMatchObject({ email: 'alice@acme.test', displayName: 'Alice Acme' });
    expect(await sessionsOf('alice@acme.test')).toEqual([{ kind: 'session', sign_in_method: 'oidc' }]);

    const members = await t.server.ctx.db.query<{ organization_id: string; role: string }>(
      'SELECT m.organization_id, m.role FROM members m JOIN users u ON u.id = m.user_id WHERE u.email = $1',
      ['alice@acme.test'],
    );
    expect(members).toEqual([{ organization_id: org.id, role: 'edit' }]);
    expect(members.map((m) => m.organization_id)).not.toContain(other.id);

    // A second sign-in finds the same account (one user, one membership, a second session).
    const again = new HttpBrowser();
    expect((await again.request(await throughProvider(again, 'alice'))).headers.get('location')).toBe('/app/');
    const users = await t.server.ctx.db.query('SELECT id FROM users WHERE email = $1', ['alice@acme.test']);
    expect(users).toHaveLength(1);
    expect(await sessionsOf('alice@acme.test')).toHaveLength(2);
  });

  it('refuses a state used twice, and a callback opened in a browser that did not start the sign-in', async () => {
    const browser = new HttpBrowser();
    const callback = await throughProvider(browser, 'alice');
    const state = new URL(callback).searchParams.get('state')!;

    // Another browser (an attacker's callback URL sent to a victim): refused, and the state stays unused.
    const victim = new HttpBrowser();
    const forced = await victim.request(callback, { headers: { accept: 'application/json' } });
    expect(forced.status).toBe(400);
    expect(await forced.json()).toMatchObject({ error: { code: 400, message: expect.stringMatching(/browser/) } });

    expect((await browser.request(callback)).status).toBe(303);
    const before = (await sessionsOf('alice@acme.test')).length;
    // Replayed with the state cookie put back: the state was taken by the first use.
    browser.setCookie(t.url, 'folio_oidc_state', state);
    const replay = await browser.request(callback);
    expect(replay.status).toBe(400);
    expect(replay.headers.get('content-type')).toMatch(/text\/html/);
    expect(await replay.text()).toMatch(/already used or has expired/);
    expect(replay.headers.getSetCookie().some((c) => c.startsWith('folio_session='))).toBe(false);
    expect(await sessionsOf('alice@acme.test')).toHaveLength(before);
  });

  it('refuses a provider that shares no email, or says it is not verified, and issues nothing', async () => {
    const browser = new HttpBrowser();
    const res = await browser.request(await throughProvider(browser, 'nomail'), {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, message: expect.stringMatching(/email/) } });
    expect(await sessionUser(browser)).toBe(401);

    const unverified = new HttpBrowser();
    const refused = await unverified.request(await throughProvider(unverified, 'unverified'));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/not verified/);
    const made = await t.server.ctx.db.query('SELECT id FROM users WHERE email = $1', ['unverified@acme.test']);
    expect(made).toEqual([]);
  });

  it('refuses a member whose organization requires its SAML single sign-on', async () => {
    const db = t.server.ctx.db;
    const userId = await createUser(db, { displayName: 'Enforced', email: 'enforced@corp.test' });
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Corp' }), 201);
    await insertMember(db, { organizationId: org.id, userId, role: 'read', sso: true, joinedAt: new Date() });
    await updateOrganizationRow(db, org.id, { sso: true });
    await approveDomain(t, org.id, 'corp.test');

    const browser = new HttpBrowser();
    const res = await browser.request(await throughProvider(browser, 'enforced'));
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/single sign-on/);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('folio_session='))).toBe(false);
    expect(await sessionsOf('enforced@corp.test')).toEqual([]);
  });

  it("answers the provider's refusal with a clear page, and a callback without state with a 400", async () => {
    const browser = new HttpBrowser();
    const start = await browser.request(`${t.url}/auth/oidc/start`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const denied = await browser.request(
      `${t.url}/auth/oidc/callback?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${state}`,
    );
    expect(denied.status).toBe(403);
    const page = await denied.text();
    expect(page).toMatch(/refused the sign-in \(access_denied: The user said no\)/);
    expect(denied.headers.get('content-security-policy')).toMatch(/script-src|default-src 'none'/);

    const bare = await new HttpBrowser().request(`${t.url}/auth/oidc/callback?code=abc`, {
      headers: { accept: 'application/json' },
    });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ error: { code: 400 } });
  });

  it('refuses a code the provider did not issue for this sign-in (failed exchange), and issues nothing', async () => {
    const browser = new HttpBrowser();
    const callback = new URL(await throughProvider(browser, 'alice'));
    callback.searchParams.set('code', 'forged-code-0123456789');
    const before = (await sessionsOf('alice@acme.test')).length;
    const res = await browser.request(callback.href, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, message: expect.stringMatching(/refused/) } });
    expect(await sessionsOf('alice@acme.test')).toHaveLength(before);
  });

  it('never redirects to another site after signing in', async () => {
    const browser = new HttpBrowser();
    const res = await browser.request(await throughProvider(browser, 'alice', 'https://evil.example/steal'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/');
  });

  it('discovers the provider again after it was unreachable, without hammering it', async () => {
    const late = await startOidcProvider({});
    const local = await startTestServer({ FOLIO_OIDC_ISSUER: late.issuer, FOLIO_OIDC_CLIENT_ID: late.clientId });
    try {
      const start = () => raw(local, 'GET', '/auth/oidc/start', { headers: { accept: 'application/json' } });
      expectError(await start(), 502, /could not be reached/);
      late.register(`${local.url}/auth/oidc/callback`);
      // Just failed: not asked again at once.
      expectError(await start(), 502, /could not be reached/);
      local.clock.advance(6_000);
      const res = await fetch(`${local.url}/auth/oidc/start`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const to = new URL(res.headers.get('location')!);
      expect(to.origin).toBe(late.issuer);
      expect(to.searchParams.get('code_challenge_method')).toBe('S256');
      expect(to.searchParams.get('redirect_uri')).toBe(`${local.url}/auth/oidc/callback`);
      expect(to.searchParams.get('nonce')).toBeTruthy();
    } finally {
      await local.close();
      await late.close();
    }
  });
});
