import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRoleOrGuest } from '@gitbook/api';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { newKeyPair, TestIdp } from '../helpers/saml-idp';
import { approveDomain } from '../helpers/domains';

/**
 * A full SAML sign-in in Chromium: "Continue with SSO" by email domain, the
 * redirect to the IdP stand-in's login page (samlify, on 127.0.0.1), its form
 * posted to the ACS, and the landing on /app/ with a session cookie; then the
 * same form posted again (a replay) and an unknown domain, each refused with
 * a page that says why.
 */

const e2e = useChromium();
let idp: TestIdp;
beforeAll(async () => {
  idp = new TestIdp(await newKeyPair());
  idp.user = { email: 'jane@sso-corp.example', displayName: 'Jane Doe' };
  await idp.listen();
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'SSO Corp', emailDomains: ['sso-corp.example'] })).data
    .id;
  await approveDomain(t, orgId, 'sso-corp.example');
  await t.client.orgs.createOrganizationSamlProvider(orgId, {
    label: 'SSO Corp IdP',
    entityID: idp.entityID,
    ssoURL: idp.ssoURL,
    certificate: idp.keys.cert,
    defaultRole: 'edit' as MemberRoleOrGuest,
  });
});
afterAll(async () => {
  await idp?.close();
});

/** Who the page's session cookie signs in (as the web app asks). */
const signedInEmail = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/v1/user');
    return res.ok ? ((await res.json()) as { email: string }).email : res.status;
  });

describe('SAML sign-in in the browser', () => {
  it('goes from "Continue with SSO" through the IdP to /app/, signed in', async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${e2e.server.url}/auth/sso/start?email=${encodeURIComponent(idp.user.email)}&next=/app/`);
    // The IdP's page: the AuthnRequest arrived and was read by samlify.
    await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(idp.ssoURL).origin);
    await expect(page.getByText('Signing in as Jane Doe').count()).resolves.toBe(1);
    await e2e.screenshot(page, 'saml-idp-page');

    // What the IdP posts, kept to post it again below.
    const form = await page.locator('form').evaluate((f) => f.outerHTML);
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/app/'), { waitUntil: 'commit' }),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    expect(new URL(page.url()).origin).toBe(e2e.server.url);
    expect(await signedInEmail(page)).toBe('jane@sso-corp.example');
    const cookies = await page.context().cookies(e2e.server.url);
    expect(cookies.find((c) => c.name === 'folio_session')?.httpOnly).toBe(true);
    await page.waitForLoadState('networkidle');
    await e2e.screenshot(page, 'saml-landing');

    // The same response posted again from another browser: a replay, refused with a page.
    const replay = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await replay.setContent(form);
    const [response] = await Promise.all([
      replay.waitForResponse((r) => r.url().endsWith('/acs')),
      replay.getByRole('button', { name: 'Continue' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await replay.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
    await expect(replay.getByText('already been used').count()).resolves.toBe(1);
    expect((await replay.context().cookies(e2e.server.url)).some((c) => c.name === 'folio_session')).toBe(false);
    await e2e.screenshot(replay, 'saml-replay-refused');
  }, 60_000);

  it('an email domain no organization signs in with SSO gets a clear page', async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const res = await page.goto(`${e2e.server.url}/auth/sso/start?email=someone@nowhere.example`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
    await expect(page.getByText('nowhere.example').count()).resolves.toBe(1);
    expect((await page.context().cookies(e2e.server.url)).some((c) => c.name === 'folio_session')).toBe(false);
    await e2e.screenshot(page, 'saml-unknown-domain');
  });
});
