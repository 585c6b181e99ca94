import type { MemberRoleOrGuest } from '@gitbook/api';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSignIn } from '../../main/browser-sign-in';
import { signInThroughBrowser } from '../../renderer/src/sign-in/device-flow';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { personByEmail, type Person } from '../helpers/people';
import { newKeyPair } from '../helpers/saml-idp';
import { seedPages } from '../helpers/seed';
import { decodeQuotedPrintable, startSmtp, type TestSmtp } from '../helpers/smtp';
import { waitFor } from '../helpers/wait';
import { fillTokenSignIn, pickSpaceThroughUi, signInThroughUi, syncState } from '../helpers/web-app';
import { approveDomain } from '../helpers/domains';

/**
 * The app's sign-in screen against real servers: it offers exactly the methods a server has
 * configured (SSO once a SAML provider is ready, OpenID Connect when an issuer is set, email
 * links unless turned off), a pasted token still signs in, an email link received by a real SMTP
 * server ends in a cookie session that opens spaces and syncs without a token, Settings show it
 * as this browser's account (its sessions, devices and tokens are the Account screen's), signing
 * out ends it on the server, and the desktop device flow (the real loopback listener) hands back a
 * working device token.
 */

const e2e = useChromium({ servers: 0, app: true, staticApp: true });
let smtp: TestSmtp;
/** Every method configured (OpenID Connect with a dummy issuer: discovery only happens on click). */
let full: CompiledServer;
/** Email links turned off, no OpenID Connect, no SAML: only tokens. */
let bare: CompiledServer;
let reader: Person;
let spaceId: string;

const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

beforeAll(async () => {
  smtp = await startSmtp();
  [full, bare] = await Promise.all([
    startCompiledServer({
      env: {
        FOLIO_OIDC_ISSUER: 'http://127.0.0.1:9/realms/dummy',
        FOLIO_OIDC_CLIENT_ID: 'folio',
        FOLIO_OIDC_CLIENT_SECRET: 'dummy-secret',
        FOLIO_OIDC_LABEL: 'Keycloak',
        FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      },
    }),
    startCompiledServer({ env: { FOLIO_EMAIL_SIGN_IN: 'off' } }),
  ]);
  const orgId = (await full.client.orgs.createOrganization({ title: 'Acme', emailDomains: ['acme.example'] })).data.id;
  await approveDomain(full, orgId, 'acme.example');
  const keys = await newKeyPair();
  await full.client.orgs.createOrganizationSamlProvider(orgId, {
    label: 'Acme IdP',
    entityID: 'https://idp.acme.example/metadata',
    ssoURL: 'https://idp.acme.example/sso',
    certificate: keys.cert,
    defaultRole: 'read' as MemberRoleOrGuest,
  });
  // Rita signs in with an email link to her address at the organization's verified domain (which makes
  // her account and membership), connects a device for a token, and an admin makes her an editor.
  reader = await personByEmail(full, smtp, 'rita.reader@acme.example');
  await full.client.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'edit' as MemberRoleOrGuest });
  spaceId = (await full.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await seedPages(full, spaceId, [{ title: 'Welcome', markdown: 'The cookie carried this text.\n' }]);
});
afterAll(async () => {
  await full?.close();
  await bare?.close();
  await smtp?.close();
});

const shots = (page: Page, name: string) => e2e.screenshotEveryWay(page, name);

const offered = (page: Page) => page.getByTestId('sign-in-methods').getAttribute('data-methods');

/** The email link the server mailed to `to` (the newest one). */
async function mailedLink(to: string, after: number): Promise<string> {
  const mail = await waitFor(
    () => smtp.messages.slice(after).find((m) => m.to.includes(to)),
    15_000,
    `a sign-in mail to ${to}`,
  );
  return /https?:\/\/\S+\/auth\/email\/verify\?token=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(mail!.raw))![0];
}

describe('the methods offered', () => {
  it('shows every configured method, the token form collapsed; passes axe in light and dark', async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.goto(`${full.url}/app/`);
    await poll(() => offered(page)).toBe('sso oidc email');
    expect(await page.getByTestId('method-oidc').textContent()).toBe('Continue with Keycloak');
    expect(await page.getByTestId('server-url').isVisible()).toBe(false);
    expect(await page.getByTestId('token').isVisible()).toBe(false);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(seriousFindings(await axeScan(page))).toEqual([]);
    }
    await shots(page, 'sign-in-all-methods');
    // The SSO panel asks for the work email, then hands over to the server's SAML start.
    await page.getByTestId('method-sso').click();
    await page.getByTestId('sso-email').fill('jane@acme.example');
    await shots(page, 'sign-in-sso-email');
    const sso = page.waitForRequest((r) => r.url().includes('/auth/sso/start'));
    await page.getByTestId('sso-continue').click();
    const ssoUrl = new URL((await sso).url());
    expect(Object.fromEntries(ssoUrl.searchParams)).toEqual({ email: 'jane@acme.example', next: '/app/' });
  });

  it('starts OpenID Connect at the server, returning to the screen the person was on', async () => {
    const page = await e2e.newPage();
    await page.goto(`${full.url}/app/s/${spaceId}`);
    const oidc = page.waitForRequest((r) => r.url().includes('/auth/oidc/start'));
    await page.getByTestId('method-oidc').click();
    expect(new URL((await oidc).url()).searchParams.get('next')).toBe(`/app/s/${spaceId}`);
  });

  it('on a server with tokens only, shows the token form open and no method buttons', async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${bare.url}/app/`);
    await poll(() => offered(page)).toBe('');
    expect(await page.locator('.sign-in-method').count()).toBe(0);
    expect(await page.getByTestId('token').isVisible()).toBe(true);
    await shots(page, 'sign-in-token-only');
    await signInThroughUi(page, bare.url, bare.adminToken);
  });

  it('still signs in with a pasted token (collapsed form), and refuses a wrong one inline', async () => {
    const page = await e2e.newPage();
    await page.goto(`${full.url}/app/`);
    await fillTokenSignIn(page, full.url, 'not-a-real-token');
    await poll(() => page.getByTestId('sign-in-error').textContent()).toContain('Invalid API token');
    await e2e.screenshot(page, 'sign-in-token-refused');
    await page.getByTestId('token').fill(reader.token);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('org-list').waitFor();
  });

  it('from a plain host (no cookie of the server’s there), asks for the server and takes a token', async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(e2e.staticUrl);
    await page.getByTestId('server-url').fill(full.url);
    await poll(() => offered(page)).toBe('sso oidc email');
    expect(await page.locator('.sign-in-method').count()).toBe(0);
    expect(await page.locator('.sign-in-elsewhere a').getAttribute('href')).toBe(`${full.url}/app/`);
    await shots(page, 'sign-in-static-host');
    await page.getByTestId('token').fill(reader.token);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('org-list').waitFor();
  });

  it('opens the method /app/sign-in?method= names, and ignores a next on another site', async () => {
    const page = await e2e.newPage();
    await page.goto(`${full.url}/app/sign-in?method=email&next=${encodeURIComponent('//evil.example/')}`);
    await page.getByTestId('email-address').waitFor();
    expect(await page.getByTestId('method-email').getAttribute('aria-expanded')).toBe('true');
  });
});

describe('a cookie session', () => {
  let page: Page;

  it('signs in with an email link, and opens and syncs a space without any token', async () => {
    page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.goto(`${full.url}/app/`);
    await page.getByTestId('method-email').click();
    await page.getByTestId('email-address').fill(reader.email);
    const before = smtp.messages.length;
    await page.getByTestId('email-send').click();
    await poll(() => page.getByTestId('email-sent').textContent()).toContain(reader.email);
    expect(await page.getByTestId('email-resend').isDisabled()).toBe(true);
    expect(seriousFindings(await axeScan(page))).toEqual([]);
    await shots(page, 'sign-in-email-sent');

    await page.goto(await mailedLink(reader.email, before));
    await page.getByRole('button', { name: `Sign in as ${reader.email}` }).click();
    await page.waitForURL((url) => url.pathname === '/app/');
    await page.getByTestId('org-list').waitFor();
    // Nothing secret is in the page's storage: the session is the HttpOnly cookie.
    expect(await page.evaluate(() => localStorage.getItem('folio.accounts'))).toBeNull();
    expect((await page.context().cookies(full.url)).find((c) => c.name === 'folio_session')?.httpOnly).toBe(true);

    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await pickSpaceThroughUi(page, spaceId);
    await poll(() => syncState(page)).toBe('online');
    await poll(() => page.getByTestId('editor-content').textContent()).toContain('The cookie carried this text.');
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.every((url) => !url.includes('token='))).toBe(true);
  });

  it('shows the browser session in Settings, which send its sessions and devices to the Account screen', async () => {
    await page.goto(`${full.url}/app/settings`);
    await poll(() => page.getByTestId('account').textContent()).toContain('signed in with this browser');
    expect(await page.getByTestId('account').getAttribute('data-active')).toBe('true');
    // The list of sessions, devices and tokens lives on the Account screen only.
    expect(await page.getByTestId('session-list').count()).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(seriousFindings(await axeScan(page))).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await shots(page, 'settings-browser-session');
    await page.getByTestId('settings-open-account').click();
    await poll(() => new URL(page.url()).pathname).toBe('/app/account');
    await page.goto(`${full.url}/app/settings`);
    await page.getByTestId('account').waitFor();
  });

  it('signs the desktop app in through the browser session (device flow over a real loopback listener)', async () => {
    const browser = await e2e.newPage({ storageState: await page.context().storageState() });
    const listener = new BrowserSignIn(async (url) => void browser.goto(url));
    const approved = signInThroughBrowser(full.url, 'email', listener, 'Test bench');
    // The web app sees the session and goes on to the consent page.
    await browser.getByRole('button', { name: 'Approve' }).click();
    const device = await approved;
    const me = await fetch(`${full.url}/v1/user`, { headers: { authorization: `Bearer ${device.token}` } });
    expect(((await me.json()) as { id: string }).id).toBe(reader.id);
    const tokens = (await (
      await fetch(`${full.url}/v1/user/tokens`, { headers: { authorization: `Bearer ${device.token}` } })
    ).json()) as { items: { id: string; kind?: string }[] };
    expect(tokens.items.find((t) => t.id === device.tokenId)?.kind).toBe('device');
  });

  it('signs out: back to the sign-in screen, and the cookie no longer works', async () => {
    const cookie = (await page.context().cookies(full.url)).find((c) => c.name === 'folio_session')!;
    await page.getByTestId('account-sign-out').click();
    await page.getByTestId('sign-in-screen').waitFor();
    await page.reload();
    await page.getByTestId('method-email').waitFor();
    const res = await fetch(`${full.url}/v1/user`, { headers: { cookie: `folio_session=${cookie.value}` } });
    expect(res.status).toBe(401);
  });
});
