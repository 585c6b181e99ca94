import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * The organization screens read through the app's shared stores: a write on one screen shows on
 * every other at once, without a reload — a renamed organization in its navigation and the window
 * title, a space created in a collection in the home's count, a collection created on the home in
 * its list, a team renamed in place.
 */

const e2e = useChromium({ app: true });
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function must<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${e2e.server.adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

let lastPage: Page | undefined;
async function openSignedIn(path: string): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, e2e.server.adminToken);
  return page;
}

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `org-live-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

let orgId: string;
let collectionId: string;

beforeAll(async () => {
  orgId = (await must<{ id: string }>('POST', '/orgs', { title: 'Live Co' })).id;
  collectionId = (await must<{ id: string }>('POST', `/orgs/${orgId}/collections`, { title: 'Guides' })).id;
});

describe('organization screens follow their writes without a reload', () => {
  it('renames the organization: its navigation and the window title change at once', async () => {
    const page = await openSignedIn(`/o/${orgId}/settings`);
    await poll(() => page.getByTestId('org-nav-title').textContent()).toBe('Live Co');
    // Nothing is fetched again after the save: the answer of the PATCH is what the screens show.
    const reads: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'GET' && new URL(req.url()).pathname === `/v1/orgs/${orgId}`) reads.push(req.url());
    });
    await page.getByTestId('org-title-input').fill('Live Company');
    await page.getByTestId('org-settings-save').click();
    await poll(() => page.getByTestId('org-nav-title').textContent()).toBe('Live Company');
    await poll(() => page.title()).toContain('Live Company');
    expect(reads).toEqual([]);
    expect((await must<{ title: string }>('GET', `/orgs/${orgId}`)).title).toBe('Live Company');
    await e2e.screenshotEveryWay(page, 'org-settings');

    // A name the server refuses keeps its message, and the saved name stays.
    await page.getByTestId('org-title-input').fill('x');
    await page.getByTestId('org-settings-save').click();
    expect(await page.getByTestId('org-title-input').evaluate((el: HTMLInputElement) => el.validationMessage)).not.toBe(
      '',
    );
    expect(await page.getByTestId('org-nav-title').textContent()).toBe('Live Company');
  });

  it('a space created in a collection is counted on the home, a new collection is listed', async () => {
    const page = await openSignedIn(`/o/${orgId}`);
    const collection = page.locator(`[data-testid=org-collection][data-collection-id="${collectionId}"]`);
    await poll(() => collection.locator('xpath=..').textContent()).toContain('0 spaces');
    await collection.click();
    await poll(() => page.getByTestId('collection-title').textContent()).toBe('Guides');
    await page.getByTestId('org-new-space').click();
    await page.getByTestId('prompt-input').fill('Setup guide');
    await page.getByTestId('prompt-ok').click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/s/'));
    await page.goBack();
    await poll(() => page.getByTestId('org-space').allTextContents()).toEqual([expect.stringContaining('Setup guide')]);
    await page.getByTestId('collection-access-panel').waitFor();
    await e2e.screenshotEveryWay(page, 'org-collection');
    await page.getByTestId('crumb-org').click();
    await poll(() => collection.locator('xpath=..').textContent()).toContain('1 space');

    await page.getByTestId('new-collection').click();
    await page.getByTestId('prompt-input').fill('Reference');
    await page.getByTestId('prompt-ok').click();
    await poll(() => page.getByTestId('collection-title').textContent()).toBe('Reference');
    await page.getByTestId('crumb-org').click();
    await poll(() => page.getByTestId('org-collection').allTextContents()).toEqual(['Guides', 'Reference']);
  });

  it('renames and deletes a team in place, keeping the name typed for a new team', async () => {
    const team = await must<{ id: string }>('PUT', `/orgs/${orgId}/teams`, { title: 'Support', members: [] });
    const page = await openSignedIn(`/o/${orgId}/teams`);
    const row = page.locator(`[data-testid=team][data-team-id="${team.id}"]`);
    await page.getByTestId('team-title').fill('Half-typed');
    await row.getByTestId('team-rename').click();
    await page.getByTestId('prompt-input').fill('Customer support');
    await page.getByTestId('prompt-ok').click();
    await poll(() => row.getByTestId('team-name').textContent()).toBe('Customer support');
    expect(await page.getByTestId('team-title').inputValue()).toBe('Half-typed');
    await row.getByTestId('team-delete').click();
    await page.getByTestId('confirm-yes').click();
    await poll(() => row.count()).toBe(0);
    expect((await must<{ items: unknown[] }>('GET', `/orgs/${orgId}/teams`)).items).toEqual([]);
  });
});
