import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { HttpBrowser } from '../helpers/http-browser';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider';
import { signInWithOidc, signOut } from '../helpers/people';
import { decodeQuotedPrintable, startSmtp, type TestSmtp } from '../helpers/smtp';
import { axeScan, seriousFindings } from '../helpers/axe';
import { waitFor } from '../helpers/wait';

/**
 * Full browser sign-ins in Chromium: through a real OpenID provider's login
 * and consent pages (oidc-provider's own), and through an email link received
 * by a real SMTP server, both landing on /app/ with a session.
 */

// The server needs the provider's address before it starts: this file starts its own.
const e2e = useChromium({ servers: 0 });
let idp: TestOidcProvider;
let smtp: TestSmtp;
let t: CompiledServer;
beforeAll(async () => {
  idp = await startOidcProvider({
    jane: { email: 'jane@example.org', email_verified: true, name: 'Jane Doe' },
    reader: { email: 'reader@example.org', email_verified: true, name: 'Mail Reader' },
  });
  smtp = await startSmtp();
  t = await startCompiledServer({
    env: {
      FOLIO_OIDC_ISSUER: idp.issuer,
      FOLIO_OIDC_CLIENT_ID: idp.clientId,
      FOLIO_OIDC_CLIENT_SECRET: idp.clientSecret,
      FOLIO_OIDC_LABEL: 'Test IdP',
      FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    },
  });
  idp.register(`${t.url}/auth/oidc/callback`);
  // The mail reader has an account (an earlier sign-in through the provider made it), so a link may be mailed to them.
  const earlier = new HttpBrowser();
  await signInWithOidc(t, earlier, 'reader');
  await signOut(t, earlier);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await idp?.close();
});

/** Who the page's session cookie signs in (as the web app asks). */
const signedInEmail = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/v1/user');
    return res.ok ? ((await res.json()) as { email: string }).email : res.status;
  });

describe('browser sign-in', () => {
  it("signs in through the OpenID provider's login and consent pages and lands on /app/", async () => {
    const page = await e2e.newPage();
    await page.goto(`${t.url}/auth/oidc/start?next=/app/`);
    // oidc-provider's development login page: any login name is an account id.
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/interaction/`));
    await page.fill('input[name="login"]', 'jane');
    await page.fill('input[name="password"]', 'any password');
    await page.click('button[type="submit"]');
    // Its consent page.
    await page.waitForSelector('input[name="prompt"][value="consent"]', { state: 'attached' });
    await page.click('button[type="submit"]');
    await page.waitForURL((url) => url.href.startsWith(`${t.url}/app/`));
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect(await signedInEmail(page)).toBe('jane@example.org');
    const cookies = await page.context().cookies(t.url);
    const session = cookies.find((c) => c.name === 'folio_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    // The state cookie is gone once used.
    expect(cookies.find((c) => c.name === 'folio_oidc_state')).toBeUndefined();
  });

  it('signs in with an emailed link after pressing the confirmation button', async () => {
    const res = await fetch(`${t.url}/auth/email/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'reader@example.org' }),
    });
    expect(res.status).toBe(202);
    const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes('reader@example.org')), 10_000, 'mail');
    const link = /https?:\/\/\S+\/auth\/email\/verify\?token=[A-Za-z0-9_-]{43}/.exec(
      decodeQuotedPrintable(mail!.raw),
    )![0];

    // Screenshots of the page (desktop and phone, light and dark), and an accessibility scan.
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [name, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        const look = await e2e.newPage({ colorScheme, viewport, bypassCSP: true });
        await look.goto(link);
        await e2e.screenshot(look, `email-sign-in-${name}-${colorScheme}`);
        expect(seriousFindings(await axeScan(look))).toEqual([]);
        await look.close();
      }
    }

    const page = await e2e.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in as reader@example.org' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${t.url}/app/`));
    expect(await signedInEmail(page)).toBe('reader@example.org');

    // The link is used: opening it again shows why it no longer works.
    const again = await e2e.newPage({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });
    const reopened = await again.goto(link);
    expect(reopened?.status()).toBe(400);
    await expect(again.getByRole('heading', { name: 'Sign-in failed' }).isVisible()).resolves.toBe(true);
    await e2e.screenshot(again, 'email-sign-in-used-phone-dark');
  });
});
