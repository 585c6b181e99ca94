import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * Every kind of `urls.app` the API returns (organization, collection, site, space, page by path
 * with a section, change request by id and by number) opens the matching screen of the web app,
 * signed out (sign in, then continue to the link) and signed in, and a reload keeps the screen:
 * the server answers index.html for /app/ paths (history routing).
 */

const e2e = useChromium({ app: true, staticApp: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

interface Fixture {
  org: { id: string; title: string; app: string };
  collection: { id: string; app: string };
  site: { id: string; app: string };
  space: { id: string; app: string };
  page: { id: string; app: string };
  section: { app: string };
  cr: { id: string; app: string; byId: string };
}
let f: Fixture;
/** The page the running test opened last: screenshotted when the test fails. */
let lastPage: Page | undefined;

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `deep-link-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

/** A new page whose steps fail well before the test's deadline, so a failure names its step. */
async function newPage(options: Parameters<typeof e2e.newPage>[0]): Promise<Page> {
  const page = await e2e.newPage(options);
  page.setDefaultTimeout(15_000);
  lastPage = page;
  return page;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${e2e.server.adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type WithApp = { id: string; urls: { app: string } };

beforeAll(async () => {
  const org = await api<WithApp & { title: string }>('POST', '/orgs', { title: 'Deep Link Docs' });
  const collection = await api<WithApp>('POST', `/orgs/${org.id}/collections`, { title: 'Handbooks' });
  const space = await api<WithApp>('POST', `/orgs/${org.id}/spaces`, {
    title: 'Operator guide',
    parent: collection.id,
  });
  const pages = await seedPages(e2e.server, space.id, [
    { title: 'Welcome', markdown: 'Start here.\n' },
    { title: 'Getting started', markdown: 'Overview.\n' },
    {
      // REST reads the leading "# Install" as the title.
      title: 'Install',
      parent: 'Getting started',
      markdown: `First steps.\n\n${'Filler line.\n\n'.repeat(60)}## Run it\n\nThe section of the link.\n`,
    },
  ]);
  const pageId = pages.Install!;
  // The merge is the space's revision: the page is readable by path at once.
  const page = await api<{ id: string }>('GET', `/spaces/${space.id}/content/path/getting-started/install`);
  expect(page.id).toBe(pageId);
  const cr = await api<WithApp & { number: number }>('POST', `/spaces/${space.id}/change-requests`, {
    subject: 'Fix typos',
  });
  const site = await api<WithApp>('POST', `/orgs/${org.id}/sites`, { title: 'Public docs', spaces: [space.id] });
  f = {
    org: { id: org.id, title: org.title, app: org.urls.app },
    collection: { id: collection.id, app: collection.urls.app },
    site: { id: site.id, app: site.urls.app },
    space: { id: space.id, app: space.urls.app },
    page: { id: pageId, app: `${space.urls.app}/getting-started/install` },
    section: { app: `${space.urls.app}/getting-started/install#run-it` },
    cr: { id: cr.id, app: cr.urls.app, byId: `${space.urls.app}/cr/${cr.id}` },
  };
});

/** A signed-in page (the token saved in this context's localStorage, as sign-in leaves it). */
async function signedInPage(options: { colorScheme?: 'light' | 'dark'; width?: number } = {}): Promise<Page> {
  const page = await newPage({
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1280, height: options.width === 390 ? 844 : 800 },
  });
  await page.goto(`${e2e.server.url}/app/`);
  await fillTokenSignIn(page, e2e.server.url, e2e.server.adminToken);
  await page.getByTestId('org-list').waitFor();
  return page;
}

/** Polls the UI with a deadline that suits a loaded CI machine (vitest's default is one second). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function pageTitle(page: Page): Promise<string> {
  const el = page.getByTestId('page-title').first();
  await el.waitFor();
  return (
    await el.evaluate((node) =>
      node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement ? node.value : (node.textContent ?? ''),
    )
  ).trim();
}

describe('urls.app opens the right screen', () => {
  it('uses the API’s own links (the forms the server builds)', () => {
    const base = `${e2e.server.url}/app`;
    expect(f.org.app).toBe(`${base}/o/${f.org.id}`);
    expect(f.collection.app).toBe(`${base}/o/${f.org.id}/c/${f.collection.id}`);
    expect(f.site.app).toBe(`${base}/o/${f.org.id}/sites/${f.site.id}`);
    expect(f.space.app).toBe(`${base}/s/${f.space.id}`);
    expect(f.cr.app).toMatch(new RegExp(`^${base}/s/${f.space.id}/~/changes/\\d+$`));
  });

  it('signed out: signs in, then continues to the linked screen', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(f.collection.app);
    await page.getByTestId('sign-in-screen').waitFor();
    expect(await page.getByTestId('sign-in-note').textContent()).toContain('open the link');
    await e2e.screenshot(page, 'deep-link-signed-out');
    await fillTokenSignIn(page, e2e.server.url, e2e.server.adminToken);
    await poll(() => page.getByTestId('collection-title').textContent()).toContain('Handbooks');
    expect(new URL(page.url()).pathname).toBe(`/app/o/${f.org.id}/c/${f.collection.id}`);
  });

  it('organization, collection and site links open their screens, and survive a reload', async () => {
    const page = await signedInPage();
    for (const [url, testid, text, shot] of [
      [f.org.app, 'org-title', 'Deep Link Docs', 'deep-link-org'],
      [f.collection.app, 'collection-title', 'Handbooks', 'deep-link-collection'],
      [f.site.app, 'site-title', 'Public docs', 'deep-link-site'],
    ] as const) {
      await page.goto(url);
      await poll(() => page.getByTestId(testid).textContent()).toContain(text);
      await e2e.screenshot(page, shot);
      await page.reload();
      await poll(() => page.getByTestId(testid).textContent()).toContain(text);
      expect(page.url()).toBe(url);
    }
  });

  it('a space link opens the space; a page link by path opens that page, at its section', async () => {
    const page = await signedInPage();
    await page.goto(f.space.app);
    await page.getByTestId('page-tree').waitFor();
    await poll(() => page.getByTestId('space-title').textContent()).toBe('Operator guide');
    await e2e.screenshot(page, 'deep-link-space');

    await page.goto(f.page.app);
    await poll(() => pageTitle(page)).toBe('Install');
    // The path resolved to the page id, which the address now carries (so the page stays on reload).
    await poll(() => new URL(page.url()).pathname).toBe(`/app/s/${f.space.id}/~/page/${f.page.id}`);
    await page.reload();
    await poll(() => pageTitle(page)).toBe('Install');

    await page.goto(f.section.app);
    await poll(() => pageTitle(page)).toBe('Install');
    expect(new URL(page.url()).hash).toBe('#run-it');
    // The page scrolled to the section: its heading is on screen, the first lines are not.
    const onScreen = (text: string) =>
      page.evaluate((t) => {
        const line = Array.from(document.querySelectorAll('.cm-line')).find((l) => l.textContent?.includes(t));
        if (!line) return false;
        const box = line.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      }, text);
    await poll(() => onScreen('Run it')).toBe(true);
    expect(await onScreen('First steps.')).toBe(false);
    await e2e.screenshot(page, 'deep-link-section');
  });

  it('change request links, by number and by id, open the change request', async () => {
    const page = await signedInPage();
    await page.goto(f.cr.app);
    await page.getByTestId('cr-badge').waitFor();
    await poll(() => new URL(page.url()).pathname).toBe(`/app/s/${f.space.id}/cr/${f.cr.id}`);
    await e2e.screenshot(page, 'deep-link-change-request');
    await page.reload();
    await page.getByTestId('cr-badge').waitFor();
    await page.goto(f.cr.byId);
    await page.getByTestId('cr-badge').waitFor();
  });

  it('an unknown page path opens the space and says what was not found', async () => {
    const page = await signedInPage();
    await page.goto(`${f.space.app}/no/such/page`);
    await page.getByTestId('page-tree').waitFor();
    await poll(() => page.locator('.toast, [role=status], [role=alert]').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('not found')]),
    );
  });

  it('old hash links (#/spaces/…) still open, rewritten to the path form', async () => {
    const page = await signedInPage();
    await page.goto('about:blank');
    await page.goto(`${e2e.server.url}/app/#/spaces/${f.space.id}/pages/${f.page.id}`);
    await poll(() => pageTitle(page)).toBe('Install');
    expect(new URL(page.url()).pathname).toBe(`/app/s/${f.space.id}/~/page/${f.page.id}`);
    // A hash link followed inside the running app (hashchange) goes the same way.
    await page.evaluate((orgId) => (location.hash = `#/o/${orgId}`), f.org.id);
    await poll(() => page.getByTestId('org-title').textContent()).toBe('Deep Link Docs');
    expect(new URL(page.url()).pathname).toBe(`/app/o/${f.org.id}`);
  });

  it('back and forward move between screens opened in the app', async () => {
    const page = await signedInPage();
    await page.locator(`[data-testid=org][data-org-id="${f.org.id}"] [data-testid=space]`).first().waitFor();
    await e2e.screenshot(page, 'deep-link-picker');
    await page.locator(`[data-testid=org][data-org-id="${f.org.id}"] [data-testid=open-org]`).click();
    await poll(() => page.getByTestId('org-title').textContent()).toBe('Deep Link Docs');
    await page.getByTestId('org-tab-members').click();
    await page.getByTestId('members-title').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/o/${f.org.id}/members`);
    await page.goBack();
    await poll(() => page.getByTestId('org-title').textContent()).toBe('Deep Link Docs');
    await page.goBack();
    await page.getByTestId('org-list').waitFor();
    await page.goForward();
    await page.getByTestId('org-title').waitFor();
  });

  it('the server answers a missing asset with 404, not the app', async () => {
    const res = await fetch(`${e2e.server.url}/app/assets/missing-file.js`);
    expect(res.status).toBe(404);
    const deep = await fetch(`${e2e.server.url}/app/s/${f.space.id}/getting-started/install`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await deep.text()).toMatch(/src="\.\.\/\.\.\/\.\.\/assets\//);
  });

  it('from disk (how the desktop app loads it), the same links work in the hash', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    const path = new URL(f.page.app).pathname.slice('/app'.length);
    await page.goto(`${e2e.staticUrl}#${path}`);
    await fillTokenSignIn(page, e2e.server.url, e2e.server.adminToken);
    await poll(() => pageTitle(page)).toBe('Install');
    await poll(() => new URL(page.url()).hash).toBe(`#/s/${f.space.id}/~/page/${f.page.id}`);
    await page.evaluate((app) => (location.hash = `#${new URL(app).pathname.slice(4)}`), f.collection.app);
    await poll(() => page.getByTestId('collection-title').textContent()).toContain('Handbooks');
  });
});
