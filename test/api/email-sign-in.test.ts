import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { decodeQuotedPrintable, startSmtp, type TestSmtp } from '../helpers/smtp';
import { HttpBrowser } from '../helpers/http-browser';
import { asRole, expectError, ok, raw } from '../helpers/api';
import { waitFor } from '../helpers/wait';
import { createUser } from '../../sync-server/identity/users';
import { insertMember } from '../../sync-server/store/members';
import { updateOrganizationRow } from '../../sync-server/store/organizations';
import { approveDomain } from '../helpers/domains';

/**
 * Email sign-in links through real HTTP, mailed to a real SMTP server:
 * asked for, received, confirmed on the server's page, used once, expired
 * after 15 minutes (the test clock), and never sent where they must not be.
 */

let smtp: TestSmtp;
let t: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({
    FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    FOLIO_SMTP_FROM: 'Folio Test <folio@example.com>',
  });
  await createUser(t.server.ctx.db, { displayName: 'Writer', email: 'writer@example.com' });
  await createUser(t.server.ctx.db, { displayName: 'Other', email: 'other@example.com' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const LINK = /https?:\/\/[^\s]+\/auth\/email\/verify\?token=[A-Za-z0-9_-]{43}/;

/** Asks for a link for `email` (always a 202). */
async function ask(email: string, next?: string): Promise<void> {
  const res = await raw(t, 'POST', '/auth/email/start', { body: next ? { email, next } : { email } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toEqual({ sent: true });
}

/** Asks for a link for `email` and returns it as received by the SMTP server. */
async function linkFor(email: string, next?: string): Promise<string> {
  // Addresses are kept and mailed to lower-case.
  const to = email.toLowerCase();
  const before = mailsTo(to).length;
  await ask(email, next);
  const mail = await waitFor(() => mailsTo(to)[before], 10_000, `the sign-in mail to ${to}`);
  const text = decodeQuotedPrintable(mail!.raw);
  expect(text).toMatch(/Subject: Your Folio sign-in link/);
  return LINK.exec(text)![0];
}

/**
 * Asks for a link that must not be sent: the answer is the same 202, and
 * once a mail asked for afterwards has arrived, none went to `email`.
 */
async function expectNoLink(email: string): Promise<void> {
  await ask(email);
  await linkFor('writer@example.com');
  expect(mailsTo(email)).toEqual([]);
  const stored = await t.server.ctx.db.query(
    "SELECT id FROM sign_in_requests WHERE kind = 'email-link' AND data->>'email' = $1",
    [email],
  );
  expect(stored).toEqual([]);
}

/** Opens the link's page and presses its button, as a browser would (same-origin form post). */
async function confirm(browser: HttpBrowser, link: string): Promise<Response> {
  const page = await browser.request(link);
  expect(page.status).toBe(200);
  return browser.submitForm(link, await page.text(), {}, { origin: t.url, 'sec-fetch-site': 'same-origin' });
}

async function sessionEmail(browser: HttpBrowser): Promise<string | number> {
  const res = await browser.request(`${t.url}/v1/user`, { headers: { 'sec-fetch-site': 'same-origin' } });
  return res.status === 200 ? ((await res.json()) as { email: string }).email : res.status;
}

describe('email sign-in links', () => {
  it('mails a link that signs its address in once, after the confirmation page', async () => {
    const link = await linkFor('Writer@Example.com', '/app/s/notes');
    expect(link.startsWith(`${t.url}/auth/email/verify?token=`)).toBe(true);

    const browser = new HttpBrowser();
    const page = await browser.request(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'/);
    const html = await page.text();
    expect(html).toContain('Sign in as writer@example.com');
    expect(html).not.toMatch(/<script/i);
    // Opening the page (what a mail scanner does) did not use the link up: the button still works.
    const signedIn = await browser.submitForm(link, html, {}, { origin: t.url, 'sec-fetch-site': 'same-origin' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/app/s/notes');
    expect(signedIn.headers.getSetCookie().some((c) => /^folio_session=.+HttpOnly/i.test(c))).toBe(true);
    expect(await sessionEmail(browser)).toBe('writer@example.com');
    const [session] = await t.server.ctx.db.query<{ sign_in_method: string }>(
      "SELECT t.sign_in_method FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1 AND t.kind = 'session'",
      ['writer@example.com'],
    );
    expect(session?.sign_in_method).toBe('email');

    // Used: neither the page nor the post works again.
    const again = new HttpBrowser();
    const reopened = await again.request(link);
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toMatch(/already used or has expired/);
    const reposted = await again.submitForm(link, html, {}, { origin: t.url, accept: 'application/json' });
    expect(reposted.status).toBe(400);
    expect(await reposted.json()).toMatchObject({ error: { code: 400 } });
    expect(await sessionEmail(again)).toBe(401);
  });

  it('expires a link after 15 minutes', async () => {
    const link = await linkFor('other@example.com');
    t.clock.advance(15 * 60_000 + 1_000);
    const browser = new HttpBrowser();
    expect((await browser.request(link)).status).toBe(400);
    const token = new URL(link).searchParams.get('token')!;
    const posted = await browser.request(`${t.url}/auth/email/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
      body: new URLSearchParams({ token }),
    });
    expect(posted.status).toBe(400);
    expect(await sessionEmail(browser)).toBe(401);
  });

  it("signs in only the address a link was mailed to, whatever the post says, and refuses another site's post", async () => {
    const link = await linkFor('other@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const browser = new HttpBrowser();
    // Posted from another site (a login-CSRF attempt with someone's link): refused, and the link is not used up.
    const crossSite = await browser.request(`${t.url}/auth/email/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ token }),
    });
    expect(crossSite.status).toBe(403);
    expect(await sessionEmail(browser)).toBe(401);

    const page = await browser.request(link);
    const res = await browser.submitForm(
      link,
      await page.text(),
      { email: 'writer@example.com' },
      { origin: t.url, 'sec-fetch-site': 'same-origin' },
    );
    expect(res.status).toBe(303);
    expect(await sessionEmail(browser)).toBe('other@example.com');

    // A token nobody was sent, and an OpenID state id in the token's place, are refused alike.
    const made = await raw(t, 'POST', '/auth/email/verify', {
      body: { token: 'A'.repeat(43) },
      headers: { origin: t.url, accept: 'application/json' },
    });
    expectError(made, 400, /already used or has expired/);
  });

  it('answers an unknown address exactly like a known one, and mails it nothing', async () => {
    await expectNoLink('nobody@nowhere.test');
    expect(await t.server.ctx.db.query('SELECT id FROM users WHERE email = $1', ['nobody@nowhere.test'])).toEqual([]);
  });

  it("makes the account of an organization's email domain on first use and joins it with its default role", async () => {
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Domain Org' }), 201);
    await ok(
      'updateOrganizationById',
      t.client.orgs.updateOrganizationById(org.id, { emailDomains: ['domain.test'], defaultRole: asRole('comment') }),
    );
    await approveDomain(t, org.id, 'domain.test');
    const link = await linkFor('newcomer@domain.test');
    // Asking made nothing yet: the account appears when the link is used.
    expect(await t.server.ctx.db.query('SELECT id FROM users WHERE email = $1', ['newcomer@domain.test'])).toEqual([]);
    const browser = new HttpBrowser();
    expect((await confirm(browser, link)).status).toBe(303);
    expect(await sessionEmail(browser)).toBe('newcomer@domain.test');
    const members = await t.server.ctx.db.query<{ organization_id: string; role: string }>(
      'SELECT m.organization_id, m.role FROM members m JOIN users u ON u.id = m.user_id WHERE u.email = $1',
      ['newcomer@domain.test'],
    );
    expect(members).toEqual([{ organization_id: org.id, role: 'comment' }]);
  });

  it('joins nobody to an organization whose email domain is declared but not verified', async () => {
    const squatter = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Squatter' }), 201);
    await ok(
      'updateOrganizationById',
      t.client.orgs.updateOrganizationById(squatter.id, {
        emailDomains: ['unproved.test'],
        defaultRole: asRole('admin'),
      }),
    );
    // An existing account (a stranger's address gets no link at all: no verified organization claims its domain).
    await createUser(t.server.ctx.db, { displayName: 'Victim', email: 'victim@unproved.test' });
    const browser = new HttpBrowser();
    expect((await confirm(browser, await linkFor('victim@unproved.test'))).status).toBe(303);
    expect(await sessionEmail(browser)).toBe('victim@unproved.test');
    const members = await t.server.ctx.db.query(
      'SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE u.email = $1',
      ['victim@unproved.test'],
    );
    expect(members).toEqual([]);
  });

  it('does not bring back a member an admin removed, until they accept an invite', async () => {
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Removal Org' }), 201);
    await ok(
      'updateOrganizationById',
      t.client.orgs.updateOrganizationById(org.id, { emailDomains: ['removal.test'], defaultRole: asRole('admin') }),
    );
    await approveDomain(t, org.id, 'removal.test');
    const signIn = async () => {
      const browser = new HttpBrowser();
      expect((await confirm(browser, await linkFor('gone@removal.test'))).status).toBe(303);
      return browser;
    };
    await signIn();
    const db = t.server.ctx.db;
    const [user] = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', ['gone@removal.test']);
    const roleOf = async () =>
      (
        await db.query<{ role: string }>('SELECT role FROM members WHERE organization_id = $1 AND user_id = $2', [
          org.id,
          user!.id,
        ])
      )[0]?.role;
    expect(await roleOf()).toBe('admin');
    expect((await raw(t, 'DELETE', `/v1/orgs/${org.id}/members/${user!.id}`, { token: t.adminToken })).status).toBe(
      204,
    );
    await signIn();
    expect(await roleOf()).toBeUndefined();

    // Invited back: the invite, accepted, is the way in (and the domain join works again afterwards).
    await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(org.id, { emails: ['gone@removal.test'], role: asRole('read') }),
    );
    expect(await roleOf()).toBeUndefined();
    const [invite] = await db.query<{ id: string }>(
      'SELECT id FROM email_invites WHERE organization_id = $1 AND email = $2',
      [org.id, 'gone@removal.test'],
    );
    const browser = await signIn();
    const joined = await browser.request(`${t.url}/v1/orgs/${org.id}/invites/${invite!.id}`, {
      method: 'POST',
      headers: { origin: t.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(joined.status).toBe(200);
    expect(await roleOf()).toBe('read');
  });

  it('mails a link to an address with a pending invite', async () => {
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Inviting Org' }), 201);
    await ok(
      'inviteUsersToOrganization',
      t.client.orgs.inviteUsersToOrganization(org.id, { emails: ['invitee@elsewhere.test'] }),
    );
    const link = await linkFor('invitee@elsewhere.test');
    const browser = new HttpBrowser();
    expect((await confirm(browser, link)).status).toBe(303);
    expect(await sessionEmail(browser)).toBe('invitee@elsewhere.test');
  });

  it('sends no link to a member whose organization requires its single sign-on', async () => {
    const db = t.server.ctx.db;
    const userId = await createUser(db, { displayName: 'Enforced', email: 'enforced@corp.test' });
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'SSO Org' }), 201);
    await insertMember(db, { organizationId: org.id, userId, role: 'read', sso: true, joinedAt: new Date() });
    await updateOrganizationRow(db, org.id, { sso: true });
    // Until the organization proves it owns corp.test, its flag locks nobody out.
    expect((await confirm(new HttpBrowser(), await linkFor('enforced@corp.test'))).status).toBe(303);
    await approveDomain(t, org.id, 'corp.test');
    const mailed = mailsTo('enforced@corp.test').length;
    await ask('enforced@corp.test');
    await linkFor('writer@example.com');
    expect(mailsTo('enforced@corp.test').length).toBe(mailed);
  });

  it('refuses a link asked for after SSO became required', async () => {
    const db = t.server.ctx.db;
    const userId = await createUser(db, { displayName: 'Late', email: 'late@latecorp.test' });
    const link = await linkFor('late@latecorp.test');
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Late SSO Org' }), 201);
    await insertMember(db, { organizationId: org.id, userId, role: 'read', sso: true, joinedAt: new Date() });
    await updateOrganizationRow(db, org.id, { sso: true });
    await approveDomain(t, org.id, 'latecorp.test');
    const browser = new HttpBrowser();
    const res = await confirm(browser, link);
    expect(res.status).toBe(403);
    expect(await sessionEmail(browser)).toBe(401);
  });

  it('limits how many links one address may ask for, and refuses bad input', async () => {
    for (let i = 0; i < 5; i++) await ask('limited@nowhere.test');
    const over = await raw(t, 'POST', '/auth/email/start', { body: { email: 'limited@nowhere.test' } });
    expectError(over, 429, /Too many/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    expectError(await raw(t, 'POST', '/auth/email/start', { body: { email: 'not an address' } }), 400);
    expectError(await raw(t, 'POST', '/auth/email/start', { body: { email: 'a@b.test', extra: 1 } }), 400);
    expectError(await raw(t, 'POST', '/auth/email/start', { rawBody: '{' }), 400);
  });

  it('answers 404 for OpenID Connect sign-in on a server without a provider', async () => {
    const res = await raw(t, 'GET', '/auth/oidc/start', { headers: { accept: 'application/json' } });
    expectError(res, 404, /not configured/);
  });
});

describe('email sign-in links without SMTP', () => {
  it('logs the link instead of mailing it, and the logged link works', async () => {
    const lines: string[] = [];
    const local = await startTestServer(
      {},
      // debug: reads (the GET of the link) are logged at debug, and their lines must be there to check.
      { logger: { level: 'debug' }, logStream: { write: (line: string) => lines.push(line) } },
    );
    try {
      await createUser(local.server.ctx.db, { displayName: 'Solo', email: 'solo@example.com' });
      const res = await raw(local, 'POST', '/auth/email/start', { body: { email: 'solo@example.com' } });
      expect(res.status).toBe(202);
      const line = await waitFor(
        () => lines.find((l) => l.includes('sign-in link for solo@example.com')),
        10_000,
        'the logged link',
      );
      const link = LINK.exec(line!)![0];
      const browser = new HttpBrowser();
      const page = await browser.request(link);
      const signedIn = await browser.submitForm(link, await page.text(), {}, { origin: local.url });
      expect(signedIn.status).toBe(303);
      // Request logs never show the link's secret (and the requests that carried it were logged).
      const verifyLines = lines.filter((l) => l.includes('"url":"/auth/email/verify'));
      expect(verifyLines.length).toBeGreaterThan(0);
      expect(verifyLines.join('\n')).not.toContain(new URL(link).searchParams.get('token')!);
    } finally {
      await local.close();
    }
  });
});
