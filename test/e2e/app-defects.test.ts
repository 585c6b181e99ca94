import { beforeAll, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { createPageThroughUi, openSpaceThroughUi, syncState } from '../helpers/web-app';

/**
 * Defects a first-time user saw (issue 14, item 8), each driven in Chromium
 * against the built web app: the status badge follows the browser going
 * offline and back; no comment box before a page is open; the app icon
 * loads (no /favicon.ico 404); /app/ serves the app, not a 503.
 */
const e2e = useChromium({ app: true });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Defects Org' })).data.id;
});

async function spaceWithPage(title: string, markdown = 'Hello.\n'): Promise<string> {
  const spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title })).data.id;
  await seedPages(e2e.server, spaceId, [{ title: 'Welcome', markdown }]);
  return spaceId;
}

it('shows "Offline" as soon as the browser goes offline, and "Online" when it is back', async () => {
  const spaceId = await spaceWithPage('Network');
  const context = await e2e.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await openSpaceThroughUi(page, e2e.server.url, e2e.server.adminToken, spaceId);
  await eventually(async () => (await syncState(page)) === 'online', 'the online badge');
  await e2e.screenshot(page, 'defects-status-online');

  await context.setOffline(true);
  await eventually(async () => (await syncState(page)) === 'offline', 'the offline badge');
  expect(await page.getByTestId('sync-status').textContent()).toContain('Offline');
  await e2e.screenshot(page, 'defects-status-offline');

  await context.setOffline(false);
  await eventually(async () => (await syncState(page)) === 'online', 'the badge back online', 20_000);
  expect(await page.getByTestId('sync-status').textContent()).toContain('Online');
});

it('shows no comment box until a page is open', async () => {
  const spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title: 'Empty' })).data.id;
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await openSpaceThroughUi(page, e2e.server.url, e2e.server.adminToken, spaceId);
  await page.getByTestId('comments-panel').waitFor();
  expect(await page.getByTestId('comment-input').isVisible()).toBe(false);
  expect(await page.getByTestId('comment-post').isVisible()).toBe(false);
  expect(await page.getByTestId('comments-panel').textContent()).toContain('Open a page');
  await e2e.screenshot(page, 'defects-no-page-no-comment-box');

  await createPageThroughUi(page, 'First page');
  await page.getByTestId('comment-input').waitFor({ state: 'visible' });
  expect(await page.getByTestId('comment-post').isVisible()).toBe(true);
});

it('serves the app icon at /favicon.ico, /app/favicon.ico and the links of index.html', async () => {
  const page = await e2e.newPage();
  const response = await page.goto(`${e2e.server.url}/app/`);
  expect(response?.status()).toBe(200);
  for (const path of ['/favicon.ico', '/app/favicon.ico']) {
    const res = await page.request.get(`${e2e.server.url}${path}`);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toBe('image/x-icon');
  }
  const links = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]'), (l) => l.href),
  );
  expect(links.length).toBeGreaterThan(0);
  for (const href of links) expect((await page.request.get(href)).status(), href).toBe(200);
});

it('draws borders for tables and block quotes in the reading view, in light and dark', async () => {
  const spaceId = await spaceWithPage('Tables', '> A quote.\n\n| Key | Value |\n| --- | --- |\n| port | 8080 |\n');
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await e2e.newPage({ colorScheme, viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, e2e.server.url, e2e.server.adminToken, spaceId);
    await page.getByTestId('toggle-preview').click();
    const preview = page.locator('.preview');
    await preview.locator('td').first().waitFor();
    const borders = await preview.evaluate((root) => {
      const width = (el: Element | null, side: 'Top' | 'Left') =>
        el ? parseFloat(getComputedStyle(el)[`border${side}Width`]) : 0;
      return { cell: width(root.querySelector('td'), 'Top'), quote: width(root.querySelector('blockquote'), 'Left') };
    });
    expect(borders.cell, `table cell border (${colorScheme})`).toBeGreaterThan(0);
    expect(borders.quote, `quote border (${colorScheme})`).toBeGreaterThan(0);
    await e2e.screenshot(page, `defects-preview-borders-${colorScheme}`);
  }
});
