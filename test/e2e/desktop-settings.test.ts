import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import type { CompiledServer } from '../helpers/compiled-server';
import { signInThroughUi } from '../helpers/web-app';

/**
 * The settings view: the theme applies at once and survives a reload (and
 * "system" follows the OS), and the saved accounts can be switched, removed
 * and signed out — two real servers, one account on each. The account's
 * sessions, devices and tokens are not listed here: signed in, the settings
 * link to the Account screen, which lists them.
 */

const e2e = useChromium({ app: true, servers: 2 });

beforeAll(async () => {
  const [alpha, beta] = e2e.servers as [CompiledServer, CompiledServer];
  await alpha.client.orgs.createOrganization({ title: 'Alpha Org' });
  await beta.client.orgs.createOrganization({ title: 'Beta Org' });
});

const DARK_BG = 'rgb(13, 17, 23)';
const LIGHT_BG = 'rgb(255, 255, 255)';

function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/** The accounts listed in the settings, as [server URL, in use]. */
async function listedAccounts(page: Page): Promise<[string | null, string | null][]> {
  const rows = page.getByTestId('account');
  return Promise.all(
    (await rows.all()).map(
      async (row) =>
        [await row.getAttribute('data-server-url'), await row.getAttribute('data-active')] as [
          string | null,
          string | null,
        ],
    ),
  );
}

it('applies and keeps the theme, switches and removes accounts, and signs out to the sign-in form', async () => {
  const [alpha, beta] = e2e.servers as [CompiledServer, CompiledServer];
  const context = await e2e.newContext({ colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${alpha.url}/app/`);
  await signInThroughUi(page, alpha.url, alpha.adminToken);
  expect(await background(page)).toBe(LIGHT_BG);

  // Dark: applied at once, and still applied after a reload (read back from the settings store).
  await page.getByTestId('open-settings').click();
  await page.getByTestId('theme-select').selectOption('dark');
  await expect.poll(() => background(page)).toBe(DARK_BG);
  await page.reload();
  await page.getByTestId('settings').waitFor();
  expect(await background(page)).toBe(DARK_BG);
  expect(await page.getByTestId('theme-select').inputValue()).toBe('dark');
  await e2e.screenshot(page, 'desktop-settings-dark');

  // System follows the OS's colour scheme; light stays light whatever the OS says.
  await page.getByTestId('theme-select').selectOption('system');
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe(DARK_BG);
  await page.getByTestId('theme-select').selectOption('light');
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await page.emulateMedia({ colorScheme: 'light' });

  // A second account on another server; it becomes the one in use.
  await page.getByTestId('add-account').click();
  await signInThroughUi(page, beta.url, beta.adminToken);
  await expect.poll(() => page.locator('[data-testid=org] h2').allTextContents()).toEqual(['Beta Org']);
  await page.getByTestId('open-settings').click();
  await expect
    .poll(() => listedAccounts(page))
    .toEqual([
      [alpha.url, 'false'],
      [beta.url, 'true'],
    ]);

  // Switch back to the first: its organizations are listed.
  await page.locator(`[data-testid=account][data-server-url="${alpha.url}"] [data-testid=account-use]`).click();
  await expect.poll(() => page.locator('[data-testid=org] h2').allTextContents()).toEqual(['Alpha Org']);

  // Remove the other (not in use): it leaves the list, the session stays.
  await page.getByTestId('open-settings').click();
  await page.locator(`[data-testid=account][data-server-url="${beta.url}"] [data-testid=account-remove]`).click();
  await page.getByTestId('confirm-yes').click();
  await expect.poll(() => listedAccounts(page)).toEqual([[alpha.url, 'true']]);
  await e2e.screenshot(page, 'desktop-settings-accounts');

  // Sessions, devices and tokens: one list, on the Account screen.
  expect(await page.getByTestId('session-list').count()).toBe(0);
  await page.getByTestId('settings-open-account').click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/app/account');
  await page.getByTestId('to-picker').click();
  await page.getByTestId('org-list').waitFor();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings').waitFor();

  // Back returns to the picker; removing the account in use signs out to the sign-in form.
  await page.getByTestId('settings-back').click();
  await page.getByTestId('org-list').waitFor();
  await page.getByTestId('open-settings').click();
  await page.locator(`[data-testid=account][data-server-url="${alpha.url}"] [data-testid=account-remove]`).click();
  await page.getByTestId('confirm-yes').click();
  await page.getByTestId('sign-in-screen').waitFor();

  // A reload stays signed out; the settings show the empty state and keep the theme.
  await page.reload();
  await page.getByTestId('sign-in-screen').waitFor();
  await page.getByTestId('open-settings').click();
  await expect.poll(() => page.getByTestId('account-list').textContent()).toContain('No account is saved');
  expect(await page.getByTestId('theme-select').inputValue()).toBe('light');
  expect(await page.getByTestId('settings-open-account').count()).toBe(0);
  await e2e.screenshot(page, 'desktop-settings-signed-out');
  await context.close();
});
