import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { newPerson, type Person } from '../helpers/people';
import { seedPages } from '../helpers/seed';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * A docs site customized, given an audience and published from the web app, against the compiled
 * server: a writer (the organization's admin) sets the primary colour and a logo, sees the live
 * preview follow, publishes, and the published site shows both; the audience screen gives a
 * share link and a visitor signing key shown once; the settings screen says the server's refusal
 * of an unverified domain and deletes a site. A reader is kept out of them (no tabs, a notice); someone outside
 * the organization cannot open them. Screenshots of each screen at desktop and phone widths,
 * light and dark, go to test-artifacts/.
 */

const e2e = useChromium({ app: true, people: true });

/** Polls the UI with a deadline that suits a loaded machine (vitest's default is one second). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

/** The logo's host is not on the network: the browser answers it (page.route below). */
const LOGO_URL = 'https://cdn.example.com/brand/logo.svg';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="40" height="40" rx="10" fill="#b4236e"/><text x="50" y="27" font-family="sans-serif" font-size="18" font-weight="700" fill="#b4236e">ACME</text></svg>';
const PRIMARY = '#b4236e';

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** A page of its own (a person's browser) with the logo's host answered. */
async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  page.setDefaultTimeout(15_000);
  await page.route('https://cdn.example.com/**', (route) =>
    route.fulfill({ contentType: 'image/svg+xml', body: LOGO_SVG }),
  );
  lastPage = page;
  return page;
}

/** Opens `path` of the web app signed in with `token`. */
async function openSignedIn(token: string, path: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await newPage(options);
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  return page;
}

const shots = (page: Page, name: string) => e2e.screenshotEveryWay(page, name);

let writer: Person;
let orgId = '';
let siteId = '';
let lastPage: Page | undefined;
const sitePath = (tab: string) => `/o/${orgId}/sites/${siteId}/${tab}`;

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `sites-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

beforeAll(async () => {
  // The writer makes the organization (its admin), two spaces with a page each, and a site
  // publishing both as sections: through the API, as a script would.
  writer = await newPerson(e2e.server, 'Wendy Writer');
  orgId = (await api<{ id: string }>(writer.token, 'POST', '/orgs', { title: 'Acme Docs' })).id;
  const guide = (await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/spaces`, { title: 'Guide' })).id;
  const reference = (await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/spaces`, { title: 'API' })).id;
  await seedPages(
    e2e.server,
    guide,
    [{ title: 'Welcome', markdown: 'Read the [setup](https://example.com/setup).\n' }],
    {
      token: writer.token,
    },
  );
  await seedPages(e2e.server, reference, [{ title: 'Endpoints', markdown: 'GET /things\n' }], {
    token: writer.token,
  });
  siteId = (await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/sites`, { title: 'Acme Help' })).id;
  await api(writer.token, 'POST', `/orgs/${orgId}/sites/${siteId}/sections`, { spaceId: guide, title: 'Guide' });
  await api(writer.token, 'POST', `/orgs/${orgId}/sites/${siteId}/sections`, { spaceId: reference, title: 'API' });
}, 120_000);

describe('a docs site’s customization, audience and settings', () => {
  it('customizes the colour and logo, refuses a bad URL, publishes, and the published site shows both', async () => {
    const page = await openSignedIn(writer.token, sitePath('customize'));
    await page.getByTestId('customize-form').waitFor();
    // Not published yet: the preview says so.
    await page.getByTestId('site-preview-unpublished').waitFor();

    // A bad colour is said under its field and keeps the form from saving.
    await page.getByTestId('customize-primary').fill('#12');
    await page.getByText('Enter a hex colour such as #3366ff').waitFor();
    await page.getByTestId('customize-primary').fill(PRIMARY);
    expect(await page.getByTestId('customize-primary-picker').inputValue()).toBe(PRIMARY);

    // A logo address the API refuses: its error is shown, and nothing is saved.
    await page.getByTestId('customize-logo').fill('ftp://cdn.example.com/logo.svg');
    await page.getByTestId('customize-save').click();
    await poll(() => page.getByTestId('customize-error').textContent()).toContain('expected an http(s) URL');
    const unchanged = await api<{ styling: { primaryColor: { light: string } }; header: { logo?: unknown } }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}/customization`,
    );
    expect(unchanged.styling.primaryColor.light).not.toBe(PRIMARY);
    expect(unchanged.header.logo).toBeUndefined();

    await page.getByTestId('customize-logo').fill(LOGO_URL);
    // A header link, added and typed in the app.
    await page.getByTestId('header-link-add').click();
    await page.getByTestId('header-link-title').fill('Blog');
    await page.getByTestId('header-link-url').fill('https://blog.example.com/');
    await page.getByTestId('customize-save').click();
    await poll(() => page.getByTestId('customize-status').textContent()).toBe('Saved');
    expect(await page.getByTestId('customize-error').textContent()).toBe('');
    const saved = await api<{
      styling: { primaryColor: { light: string } };
      header: { logo: { light: string }; links: { title: string }[] };
    }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}/customization`);
    expect(saved.styling.primaryColor.light).toBe(PRIMARY);
    expect(saved.header.logo.light).toBe(LOGO_URL);
    expect(saved.header.links.map((l) => l.title)).toEqual(['Blog']);

    // Publish from the app's settings tab.
    await page.getByTestId('site-settings').click();
    await page.getByTestId('site-publish').click();
    await poll(() => page.getByTestId('site-status').textContent()).toBe('Published');
    const published = await page.getByTestId('site-open').getAttribute('href');
    expect(published).toBe(`${e2e.server.url}/sites/${siteId}/`);
    expect((await api<{ published: boolean }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}`)).published).toBe(
      true,
    );
    await shots(page, 'sites-settings');

    // The preview shows the published page with the brand, and follows the next saved change.
    await page.getByTestId('site-customize').click();
    const frame = page.getByTestId('site-preview-frame');
    await poll(async () => (await frame.getAttribute('srcdoc')) ?? '').toContain(PRIMARY);
    expect(await frame.getAttribute('srcdoc')).toContain(LOGO_URL);
    await poll(() =>
      page
        .frameLocator('[data-testid=site-preview-frame]')
        .locator('.site img.logo')
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    await shots(page, 'sites-customize');
    await page.getByTestId('customize-primary').fill('#1a7f37');
    await page.getByTestId('customize-save').click();
    await poll(async () => (await frame.getAttribute('srcdoc')) ?? '').toContain('#1a7f37');
    await page.getByTestId('customize-primary').fill(PRIMARY);
    await page.getByTestId('customize-save').click();
    await poll(async () => (await frame.getAttribute('srcdoc')) ?? '').toContain(PRIMARY);

    // A reader of the published site sees the colour and the logo.
    const reader = await newPage();
    await reader.goto(published!);
    const accent = await reader.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
    );
    expect(accent).toBe(PRIMARY);
    const logo = reader.locator('.site img.logo');
    expect(await logo.getAttribute('src')).toBe(LOGO_URL);
    await poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await reader.locator('[data-testid=header-links] a:has-text("Blog")').isVisible()).toBe(true);
    await e2e.screenshot(reader, 'sites-published-home');
  });

  it('adds, reorders and removes header links', async () => {
    const page = await openSignedIn(writer.token, sitePath('customize'));
    const rows = page.getByTestId('header-link');
    await poll(() => rows.count()).toBe(1); // Blog, from the first test
    await page.getByTestId('header-link-add').click();
    await rows.nth(1).getByTestId('header-link-title').fill('Sign up');
    await rows.nth(1).getByTestId('header-link-url').fill('https://example.com/signup');
    await rows.nth(1).getByTestId('header-link-style').selectOption('button-primary');
    await page.getByTestId('header-link-add').click();
    await rows.nth(2).getByTestId('header-link-title').fill('Status');
    await rows.nth(2).getByTestId('header-link-url').fill('https://status.example.com');
    // Sign up moves first; what was typed moves with its row.
    await rows.nth(1).getByTestId('header-link-up').click();
    expect(await rows.nth(0).getByTestId('header-link-title').inputValue()).toBe('Sign up');
    await rows.nth(2).getByTestId('header-link-remove').click();
    await page.getByTestId('customize-save').click();
    await poll(() => page.getByTestId('customize-status').textContent()).toBe('Saved');
    const saved = await api<{ header: { links: { title: string; style: string; to: { url: string } }[] } }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}/customization`,
    );
    expect(saved.header.links.map((l) => [l.title, l.style, l.to.url])).toEqual([
      ['Sign up', 'button-primary', 'https://example.com/signup'],
      ['Blog', 'link', 'https://blog.example.com/'],
    ]);
    // The preview follows: its header has the button.
    await poll(() =>
      page
        .frameLocator('[data-testid=site-preview-frame]')
        .locator('[data-testid=header-links] a.button-primary')
        .count(),
    ).toBe(1);
  });

  it('shares the site by link and shows a new visitor signing key once', async () => {
    const page = await openSignedIn(writer.token, sitePath('audience'));
    await page.getByTestId('site-visibility-public').waitFor();
    expect(await page.getByTestId('site-visibility-public').isChecked()).toBe(true);

    await page.getByTestId('site-visibility-share-link').check();
    await poll(() => page.getByTestId('site-visibility-status').textContent()).toBe('Saved');
    const shareUrl = await page.getByTestId('site-share-url').inputValue();
    expect(shareUrl).toMatch(new RegExp(`/sites/${siteId}/\\?share=[A-Za-z0-9_-]+$`));
    const site = await api<{ visibility: string; urls: { published: string } }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}`,
    );
    expect(site.visibility).toBe('share-link');
    expect(site.urls.published).toBe(shareUrl);
    // Without the key the site is closed; with the link it opens.
    expect((await fetch(`${e2e.server.url}/sites/${siteId}/`)).status).toBe(401);
    expect((await fetch(shareUrl)).status).toBe(200);
    await shots(page, 'sites-audience-share');
    // The preview opens the shared site with its key.
    await page.getByTestId('site-customize').click();
    await poll(async () => (await page.getByTestId('site-preview-frame').getAttribute('srcdoc')) ?? '').toContain(
      '<h1',
    );
    expect(await page.getByTestId('site-preview-frame').getAttribute('srcdoc')).toContain('Welcome');
    await page.getByTestId('site-audience').click();

    await page.getByTestId('site-visibility-visitor-auth').check();
    await poll(() => page.getByTestId('site-visibility-status').textContent()).toBe('Saved');
    await page.getByTestId('visitor-key-create').click();
    await page.getByTestId('confirm-yes').click();
    const key = await page.getByTestId('visitor-key').inputValue();
    expect(key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // It is the site's key now.
    const auth = await api<{ privateKey: string }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}/publishing/auth`,
    );
    expect(auth.privateKey).toBe(key);
    await shots(page, 'sites-audience-key');
    await page.getByTestId('visitor-key-done').click();
    // Shown once: gone from the screen, and not there after a reload either.
    await poll(() => page.getByTestId('visitor-key-dialog').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await page.getByTestId('site-visitor-auth').waitFor();
    expect(await page.content()).not.toContain(key);
    await shots(page, 'sites-audience-visitor-auth');
    // The preview shows the authenticated site as a member sees it (with the member's visitor token).
    expect((await fetch(`${e2e.server.url}/sites/${siteId}/`)).status).toBe(401);
    await page.getByTestId('site-customize').click();
    await poll(async () => (await page.getByTestId('site-preview-frame').getAttribute('srcdoc')) ?? '').toContain(
      'Welcome',
    );
    await page.getByTestId('site-audience').click();

    await page.getByTestId('site-visibility-public').check();
    await poll(
      async () => (await api<{ visibility: string }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}`)).visibility,
    ).toBe('public');
  });

  it('says why an unverified custom domain is refused, renames the site and deletes another', async () => {
    const page = await openSignedIn(writer.token, sitePath('settings'));
    await page.getByTestId('site-hostname-input').fill('intranet');
    await page.getByTestId('site-general-save').click();
    await poll(() => page.getByTestId('site-general-error').textContent()).toContain(
      '“intranet” is not a hostname a site can have',
    );
    await page.getByTestId('site-hostname-input').fill('docs.acme-example.org');
    await page.getByTestId('site-general-save').click();
    await poll(() => page.getByTestId('site-general-error').textContent()).toContain('verify "docs.acme-example.org"');
    const site = await api<{ hostname?: string }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}`);
    expect(site.hostname).toBeUndefined();
    await shots(page, 'sites-settings-domain-error');

    await page.getByTestId('site-hostname-input').fill('');
    await page.getByTestId('site-title-input').fill('Acme Help Center');
    await page.getByTestId('site-general-save').click();
    await poll(() => page.getByTestId('site-general-status').textContent()).toBe('Saved');
    expect((await api<{ title: string }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}`)).title).toBe(
      'Acme Help Center',
    );

    // Another site, deleted from its settings after the confirmation.
    const doomed = (await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/sites`, { title: 'Old site' })).id;
    await page.goto(`${e2e.server.url}/app/o/${orgId}/sites/${doomed}/settings`);
    await page.getByTestId('site-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-yes').click();
    await poll(() => new URL(page.url()).pathname).toBe(`/app/o/${orgId}/sites`);
    const left = await api<{ items: { id: string }[] }>(writer.token, 'GET', `/orgs/${orgId}/sites`);
    expect(left.items.map((s) => s.id)).toEqual([siteId]);
  });

  it('has no serious or critical accessibility violations (axe-core), light and dark', async () => {
    const page = await openSignedIn(writer.token, sitePath('customize'), { bypassCSP: true });
    const found: string[] = [];
    for (const [tab, ready] of [
      ['customize', 'site-preview-frame'],
      ['audience', 'site-visibility-public'],
      ['settings', 'site-title-input'],
    ] as const) {
      if (tab !== 'customize') await page.getByTestId(`site-${tab}`).click();
      await page.getByTestId(ready).waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300); // the theme's colour transitions
        found.push(...seriousFindings(await axeScan(page)).map((line) => `${tab} ${scheme}: ${line}`));
      }
    }
    expect(found).toEqual([]);
  });

  it('keeps a reader out of the site’s settings: no tabs for them, and a notice at their addresses', async () => {
    // Joins through an invite link the writer makes (the writer's organization, not the instance admin's).
    const reader = await newPerson(e2e.server, 'Rita Reader');
    const invite = await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/link-invites`, { role: 'read' });
    await api(reader.token, 'POST', `/orgs/${orgId}/invites/${invite.id}`, {});
    const page = await openSignedIn(reader.token, sitePath('settings'));
    await page.getByTestId('site-settings-not-allowed').waitFor();
    // The site's own tabs: the overview and the structure only.
    expect(await page.locator('.site-tabs a').allTextContents()).toEqual(['Overview', 'Structure']);
    expect(await page.locator('main input, main select, main textarea').count()).toBe(0);
    for (const absent of ['site-title-input', 'site-general-save', 'site-publish', 'site-unpublish', 'site-delete'])
      expect(await page.getByTestId(absent).count(), absent).toBe(0);
    await shots(page, 'sites-settings-reader');
    for (const tab of ['customize', 'audience']) {
      await page.goto(`${e2e.server.url}/app${sitePath(tab)}`);
      await page.getByTestId('site-settings-not-allowed').waitFor();
      expect(await page.getByTestId('customize-form').count()).toBe(0);
      expect(await page.locator('main input, main select, main textarea').count(), tab).toBe(0);
    }
    await shots(page, 'sites-audience-reader');
    // The API refuses a reader's change anyway.
    const res = await fetch(`${e2e.server.url}/v1/orgs/${orgId}/sites/${siteId}/customization`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${reader.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ styling: { primaryColor: { light: '#000000', dark: '#000000' } } }),
    });
    expect(res.status).toBe(403);
  });

  it('does not open the screens to someone outside the organization', async () => {
    const outsider = await newPerson(e2e.server, 'Otto Outsider');
    const page = await openSignedIn(outsider.token, sitePath('settings'));
    await page.locator('.state-error').first().waitFor();
    expect(await page.getByTestId('site-title-input').count()).toBe(0);
    expect(await page.locator('input, select').count()).toBe(0);
    await shots(page, 'sites-settings-outsider');
    // The API refuses their writes anyway.
    const res = await fetch(`${e2e.server.url}/v1/orgs/${orgId}/sites/${siteId}/customization`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${outsider.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ styling: { primaryColor: { light: '#000000', dark: '#000000' } } }),
    });
    expect(res.status).toBe(404);
  });

  it('does not open the screens to a guest of the organization', async () => {
    const guest = await newPerson(e2e.server, 'Gus Guest');
    const invite = await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/link-invites`, { role: null });
    await api(guest.token, 'POST', `/orgs/${orgId}/invites/${invite.id}`, {});
    const page = await openSignedIn(guest.token, sitePath('customize'));
    // Told the sites are for members (or, should the server answer first, that the site is not found).
    await page.locator('[data-testid=sites-not-allowed], .state-error').first().waitFor();
    expect(await page.getByTestId('customize-form').count()).toBe(0);
    expect(await page.locator('main input, main select').count()).toBe(0);
    await shots(page, 'sites-customize-guest');
  });
});
