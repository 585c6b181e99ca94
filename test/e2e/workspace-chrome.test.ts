import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { seedPages, type PageIds } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { answerPrompt, openSpaceThroughUi } from '../helpers/web-app';

/**
 * The workspace's chrome as components: the top bar (space title from the account's space store,
 * fetched once), renaming the space (top bar, tree header and window title follow without a
 * reload), renaming a page (the window title follows), and leaving the workspace (back to the
 * spaces, or signing out) stops everything it started: sockets, intervals, requests.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let spaceId: string;
let ids: PageIds;

beforeAll(async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Chrome Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Field manual' })).data.id;
  ids = await seedPages(t, spaceId, [
    { ref: 'INTRO', title: 'Introduction', markdown: 'Read me first.\n' },
    { ref: 'SETUP', title: 'Setup', markdown: 'Install it.\n' },
  ]);
});

/**
 * Counts what a page keeps running: live intervals (set and not cleared) and open or opening
 * WebSockets. Installed before the app's own scripts run.
 */
async function instrument(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const live = new Set<unknown>();
    const sockets = new Set<WebSocket>();
    const setI = window.setInterval.bind(window);
    const clearI = window.clearInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id = setI(handler, ms, ...args);
      live.add(id);
      return id;
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number) => {
      live.delete(id);
      clearI(id);
    }) as typeof window.clearInterval;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.add(this);
      }
    } as typeof WebSocket;
    (window as unknown as { running: () => { intervals: number; sockets: number } }).running = () => ({
      intervals: live.size,
      sockets: [...sockets].filter((s) => s.readyState === Native.OPEN || s.readyState === Native.CONNECTING).length,
    });
  });
}

function running(page: Page): Promise<{ intervals: number; sockets: number }> {
  return page.evaluate(() =>
    (window as unknown as { running: () => { intervals: number; sockets: number } }).running(),
  );
}

describe('the workspace chrome', { timeout: 90_000 }, () => {
  it('shows the space from the store (one request); renames follow in the top bar, the tree and the window title', async () => {
    const t = e2e.server;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    const spaceReads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === `/v1/spaces/${spaceId}`) spaceReads.push(r.url());
    });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await expect.poll(() => page.getByTestId('space-title').textContent()).toBe('Field manual');
    expect(await page.getByTestId('tree-space-title').textContent()).toBe('Field manual');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Introduction');
    await expect.poll(() => page.title()).toBe('Introduction · Field manual · Folio');
    expect(await page.getByTestId('sync-status').getAttribute('data-state')).not.toBeNull();
    await e2e.screenshotEveryWay(page, 'workspace-chrome-open');

    // Rename the space from the tree's space menu: everything that shows the title follows at once.
    await page.getByTestId('space-actions').click();
    await page.getByRole('menu').waitFor();
    await e2e.screenshot(page, 'workspace-chrome-space-menu');
    await page.getByTestId('action-rename-space').click();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('Field manual');
    await answerPrompt(page, 'Field handbook');
    await expect.poll(() => page.getByTestId('space-title').textContent()).toBe('Field handbook');
    expect(await page.getByTestId('tree-space-title').textContent()).toBe('Field handbook');
    await expect.poll(() => page.title()).toBe('Introduction · Field handbook · Folio');
    await eventually(async () => {
      const res = await fetch(`${t.url}/v1/spaces/${spaceId}`, {
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      return ((await res.json()) as { title: string }).title === 'Field handbook';
    }, 'the new title over REST');

    // Rename the page in its header: the window title follows.
    const title = page.getByTestId('page-title');
    await title.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Overview');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.title()).toBe('Overview · Field handbook · Folio');

    // A row's hover actions (built when the pointer reaches it) run through the tree: rename asks first.
    const setup = page.locator(`[data-testid=tree-row][data-page-id="${ids.SETUP}"]`);
    await setup.hover();
    await setup.locator('[data-action=rename]').click();
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('Setup');
    await page.getByTestId('prompt-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('prompt-dialog').waitFor({ state: 'detached' });

    // Another page: the window title names it.
    await page.locator(`[data-testid=tree-row][data-page-id="${ids.SETUP}"]`).click();
    await expect.poll(() => page.title()).toBe('Setup · Field handbook · Folio');

    // The space was read once (the title, the upload's organization and the rename share the store).
    expect(spaceReads).toHaveLength(1);
    await page.close();
  });

  it('stops its sockets, intervals and requests when leaving to the spaces and when signing out', async () => {
    const t = e2e.server;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await instrument(page);
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await expect.poll(() => page.getByTestId('sync-status').getAttribute('data-state')).toBe('online');
    // Everything the app keeps outside a space (the comment outbox's retry) is counted before entering.
    await page.getByTestId('to-picker').click();
    await page.getByTestId('org-list').waitFor();
    await expect.poll(async () => (await running(page)).sockets).toBe(0);
    const outside = await running(page);

    // Into the space: its two documents' sockets open (and the panels may start intervals).
    await page.locator(`[data-testid=space][data-space-id="${spaceId}"]`).click();
    await expect.poll(() => page.getByTestId('sync-status').getAttribute('data-state')).toBe('online');
    expect((await running(page)).sockets).toBeGreaterThanOrEqual(2);

    // Back to the spaces: nothing of the workspace runs any more, and it asks the server nothing.
    await page.getByTestId('to-picker').click();
    await page.getByTestId('org-list').waitFor();
    await expect.poll(() => running(page)).toEqual(outside);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.waitForTimeout(3000);
    expect(requests.filter((url) => url.includes(spaceId))).toEqual([]);
    expect(await page.title()).not.toContain('Field');

    // Signing out from inside the space closes it too.
    await page.locator(`[data-testid=space][data-space-id="${spaceId}"]`).click();
    await expect.poll(() => page.getByTestId('sync-status').getAttribute('data-state')).toBe('online');
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-screen').waitFor();
    await expect.poll(async () => (await running(page)).sockets).toBe(0);
    // Signed out, not even the outbox's retry runs.
    expect((await running(page)).intervals).toBeLessThanOrEqual(outside.intervals);
    await page.close();
  });
});
