import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { answerPrompt, signInThroughUi } from '../helpers/web-app';

/**
 * The space picker on Preact: an account without organizations is offered to create one; an
 * organization's spaces come from the store the organization's screens share, so a space created
 * from the picker joins the list without listing the spaces again; the spaces opened recently are
 * listed; the shortcuts sheet is the app's dialog.
 */

const e2e = useChromium({ app: true });
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

/** Counts the GETs of an organization's spaces list the page makes. */
function countSpaceLists(page: Page, orgId: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === `/v1/orgs/${orgId}/spaces`) count++;
  });
  return () => count;
}

it('offers to create an organization when the account belongs to none', async () => {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${e2e.server.url}/app/`);
  await page.getByTestId('method-email').waitFor();
  await e2e.screenshotEveryWay(page, 'entry-sign-in');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('account-list').getByText('No account is saved').waitFor();
  await e2e.screenshotEveryWay(page, 'entry-settings-signed-out');
  await page.getByTestId('settings-sign-in').click();
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  await poll(() => page.getByTestId('org-list').textContent()).toContain('not a member of any organization');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Folio');
  await e2e.screenshot(page, 'entry-picker-empty');
  await page.getByTestId('empty-new-org').click();
  await poll(() => new URL(page.url()).pathname).toBe('/app/new-org');
});

it('lists spaces from the store: a new space joins the list without another request', async () => {
  const orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Picker Org' })).data.id;
  await e2e.server.client.orgs.createSpace(orgId, { title: 'Handbook' });
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  const listed = countSpaceLists(page, orgId);
  await page.goto(`${e2e.server.url}/app/`);
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  const org = page.locator(`[data-testid=org][data-org-id="${orgId}"]`);
  const titles = () => org.getByTestId('space').allTextContents();
  await poll(titles).toEqual(['Handbook']);
  // Spaces are links: they open in a new tab as well.
  expect(await org.getByTestId('space').getAttribute('href')).toMatch(/^\/app\/s\/[A-Za-z0-9_-]+$/);
  expect(await org.getByTestId('open-org').getAttribute('href')).toBe(`/app/o/${orgId}`);
  expect(listed()).toBe(1);

  await org.getByTestId('new-space').click();
  await answerPrompt(page, 'Release notes');
  await page.getByTestId('page-tree').waitFor();
  // The workspace records the space as recent once its title is known.
  await poll(() =>
    page.evaluate(() => localStorage.getItem('folio.settings') ?? '').then((raw) => raw.includes('Release notes')),
  ).toBe(true);
  const created = /\/app\/s\/([A-Za-z0-9_-]+)/.exec(new URL(page.url()).pathname)![1]!;

  // Back on the picker: the new space is there, from the store, and is recent.
  await page.goBack();
  await poll(titles).toEqual(['Handbook', 'Release notes']);
  expect(await org.locator(`[data-testid=space][data-space-id="${created}"]`).count()).toBe(1);
  expect(listed()).toBe(1);
  await poll(() => page.getByTestId('recent-space').allTextContents()).toContain('Release notes');
  await e2e.screenshotEveryWay(page, 'entry-picker');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('account').waitFor();
  await e2e.screenshotEveryWay(page, 'entry-settings');
  await page.getByTestId('settings-back').click();
  await page.getByTestId('org-list').waitFor();

  // Signed-in account controls of the top bar, the same on every screen.
  expect(await page.getByTestId('sign-out').textContent()).toContain('Sign out');
  await page.getByTestId('open-account').click();
  await poll(() => new URL(page.url()).pathname).toBe('/app/account');
  await page.getByTestId('to-picker').click();
  await page.getByTestId('new-org').click();
  await poll(() => new URL(page.url()).pathname).toBe('/app/new-org');
});

it('a failed list says so and retries', async () => {
  const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${e2e.server.url}/app/`);
  let fail = true;
  await page.route(
    (url) => url.pathname === '/v1/orgs',
    (route) =>
      fail
        ? route.fulfill({ status: 503, body: '{"error":{"code":503,"message":"Down for a moment"}}' })
        : route.fallback(),
  );
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  await poll(() => page.getByTestId('org-list').textContent()).toContain('Could not load organizations');
  await e2e.screenshot(page, 'entry-picker-error-390');
  fail = false;
  await page.getByTestId('org-list').getByRole('button', { name: 'Retry' }).click();
  await poll(() => page.locator('[data-testid=org] h2').allTextContents()).toContain('Picker Org');
});

it('shows the keyboard shortcuts in the app’s dialog, closed by Escape', async () => {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${e2e.server.url}/app/`);
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  await page.locator('[data-testid=space]').first().click();
  await page.getByTestId('page-tree').waitFor();
  await page.keyboard.press('Control+/');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  expect(await dialog.getAttribute('data-testid')).toBe('shortcuts-dialog');
  expect(await dialog.textContent()).toContain('Search pages and run commands');
  await e2e.screenshot(page, 'entry-shortcuts');
  await page.keyboard.press('Escape');
  await page.getByTestId('shortcuts-dialog').waitFor({ state: 'detached' });
});
