import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

/**
 * The sign-in screen on Preact: the email link's resend countdown runs only while its panel is
 * shown (a timer that stops on unmount), and the desktop's browser sign-in can be cancelled and is
 * given up when the screen goes — a callback that arrives later exchanges no code.
 */

const e2e = useChromium({ servers: 0, app: true, staticApp: true });
let smtp: TestSmtp;
let server: CompiledServer;
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startCompiledServer({ env: { FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** Counts the page's running intervals (set and not cleared), whatever set them. */
async function trackIntervals(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const running = new Set<unknown>();
    (window as unknown as { runningIntervals: () => number }).runningIntervals = () => running.size;
    const set = window.setInterval.bind(window);
    const clear = window.clearInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => {
      const id = set(handler, ms, ...rest);
      running.add(id);
      return id;
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number) => {
      running.delete(id);
      clear(id);
    }) as typeof window.clearInterval;
  });
}

const intervals = (page: Page) =>
  page.evaluate(() => (window as unknown as { runningIntervals: () => number }).runningIntervals());

describe('the email link', () => {
  it('counts down to "Resend" while shown, and its timer stops when the panel goes', async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.clock.install();
    await trackIntervals(page);
    await page.goto(`${server.url}/app/`);
    await page.getByTestId('method-email').click();
    await page.getByTestId('email-address').fill('someone@example.org');
    const before = await intervals(page);
    await page.getByTestId('email-send').click();
    await poll(() => page.getByTestId('email-sent').textContent()).toContain('someone@example.org');
    const resend = page.getByTestId('email-resend');
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/^Resend in (30|29) s$/);
    // The countdown's timer starts in an effect, after the first paint of "Resend in 30 s".
    await poll(() => intervals(page)).toBe(before + 1);
    expect(seriousFindings(await axeScan(page))).toEqual([]);

    // Time passes: the button unlocks, and the countdown's timer is done.
    await page.clock.runFor(31_000);
    await poll(() => resend.textContent()).toBe('Resend the link');
    expect(await resend.isDisabled()).toBe(false);
    await poll(() => intervals(page)).toBe(before);

    // Resend: a new countdown; "Use another email" takes the sent state away, and its timer with it.
    await resend.click();
    await poll(() => resend.textContent()).toMatch(/^Resend in (30|29) s$/);
    await poll(() => intervals(page)).toBe(before + 1);
    await page.getByTestId('email-change').click();
    expect(await page.getByTestId('email-address').inputValue()).toBe('someone@example.org');
    await poll(() => intervals(page)).toBe(before);
  });
});

/** A desktop app's preload as the page sees it: settings and accounts in memory, a fake loopback listener. */
async function desktopPreload(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store = { settings: { recentSpaces: [] as unknown[] }, accounts: [] as unknown[] };
    const w = window as unknown as Record<string, unknown>;
    const opened: string[] = [];
    w.openedInBrowser = opened;
    w.folio = {
      platform: 'desktop',
      settings: {
        get: async () => store.settings,
        update: async (patch: Record<string, unknown>) => (store.settings = { ...store.settings, ...patch }),
      },
      accounts: {
        list: async () => store.accounts,
        save: async (account: unknown) => void store.accounts.push(account),
        remove: async () => undefined,
      },
      onMenu: () => () => undefined,
      browserSignIn: {
        listen: async () => ({ id: 'one', redirectUri: 'http://127.0.0.1:9/callback' }),
        openAndWait: (_id: string, url: string) =>
          new Promise((resolve) => {
            opened.push(url);
            w.answerBrowser = resolve;
          }),
      },
    };
  });
}

/** The `state` of the sign-in the fake browser was last sent to. */
async function lastState(page: Page): Promise<string> {
  const url = await page.evaluate(() => (window as unknown as { openedInBrowser: string[] }).openedInBrowser.at(-1)!);
  const authorize = new URL(new URL(url).searchParams.get('next')!, 'http://x');
  return authorize.searchParams.get('state')!;
}

/**
 * Waits until the fake browser was opened `count` times: "Waiting for your browser" shows at once,
 * the browser opens after the PKCE challenge and the listener (both asynchronous).
 */
const openedTimes = (page: Page, count: number) =>
  poll(() => page.evaluate(() => (window as unknown as { openedInBrowser: string[] }).openedInBrowser.length)).toBe(
    count,
  );

const answerBrowser = (page: Page, query: Record<string, string>) =>
  page.evaluate((q) => (window as unknown as { answerBrowser: (q: unknown) => void }).answerBrowser(q), query);

describe('the desktop app’s browser sign-in', () => {
  it('waits for the browser, can be cancelled, and exchanges nothing once the screen is gone', async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await desktopPreload(page);
    const exchanges: string[] = [];
    page.on('request', (r) => r.url().includes('/auth/device/token') && exchanges.push(r.url()));
    await page.goto(e2e.staticUrl);
    await page.getByTestId('server-url').fill(server.url);
    await page.getByTestId('method-email').click();
    await page.getByTestId('browser-waiting').waitFor();
    await openedTimes(page, 1);
    const opened = await page.evaluate(() => (window as unknown as { openedInBrowser: string[] }).openedInBrowser);
    expect(new URL(opened[0]!).pathname).toBe('/app/sign-in');
    expect(new URL(opened[0]!).searchParams.get('method')).toBe('email');
    await e2e.screenshotEveryWay(page, 'entry-sign-in-desktop-waiting');

    // Cancel: the wait ends, and the browser's late answer is ignored.
    await page.getByTestId('browser-cancel').click();
    await page.getByTestId('browser-waiting').waitFor({ state: 'detached' });
    await answerBrowser(page, { code: 'late', state: await lastState(page) });

    // Leaving for the settings gives the next attempt up too (once it waits for the browser's answer).
    await page.getByTestId('method-email').click();
    await page.getByTestId('browser-waiting').waitFor();
    await openedTimes(page, 2);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor();
    await answerBrowser(page, { code: 'late', state: await lastState(page) });
    await page.waitForTimeout(500);
    expect(exchanges).toEqual([]);

    // Back on the sign-in screen, an answer is exchanged; the server's refusal is said under the form.
    await page.getByTestId('add-account').click();
    await page.getByTestId('server-url').fill(server.url);
    await page.getByTestId('method-email').click();
    await page.getByTestId('browser-waiting').waitFor();
    await openedTimes(page, 3);
    await answerBrowser(page, { code: 'not-a-code', state: await lastState(page) });
    await poll(() => page.getByTestId('sign-in-error').textContent()).toContain('Could not sign in');
    expect(exchanges).toHaveLength(1);
    expect(await page.getByTestId('browser-waiting').count()).toBe(0);
  });
});
