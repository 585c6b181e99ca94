import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { fillTokenSignIn, signInThroughUi } from '../helpers/web-app';

/**
 * "Start from a template" in the web app: the new-space dialog lists the server's templates (with
 * the pages each adds); creating a space from "Knowledge base" opens it with the template's pages
 * in the tree (checked through the REST API too). Screenshots of the chooser at desktop and phone
 * widths, light and dark, and an axe scan of the open dialog.
 */

const e2e = useChromium({ app: true });
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });
const SHOTS = join(ARTIFACTS_DIR, 'shots-templates');
const shots = (page: Page, name: string) => screenshotEveryWay(page, join(SHOTS, name), { fullPage: false });

it('creates a space from the "Knowledge base" template and shows its pages in the tree', async () => {
  const orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Template Org' })).data.id;
  // bypassCSP: the axe scan is an injected script, which the app's own policy rightly forbids.
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  await page.goto(`${e2e.server.url}/app/`);
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  const org = page.locator(`[data-testid=org][data-org-id="${orgId}"]`);
  await org.getByTestId('new-space').click();

  const dialog = page.getByTestId('new-space-dialog');
  await dialog.getByRole('group', { name: 'Start from a template' }).waitFor();
  await poll(() => dialog.getByTestId('template-option').count()).toBe(6);
  const options = await dialog
    .getByTestId('template-option')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-template')));
  expect(options).toEqual(['', 'product-docs', 'api-reference', 'knowledge-base', 'changelog', 'onboarding']);
  // Blank is chosen until another is.
  expect(await dialog.getByRole('radio', { name: /Blank space/ }).isChecked()).toBe(true);
  const kb = dialog.locator('[data-testid=template-option][data-template="knowledge-base"]');
  expect(await kb.textContent()).toContain('Reset your password');
  await kb.click();
  expect(await dialog.getByRole('radio', { name: /Knowledge base/ }).isChecked()).toBe(true);
  // An untitled space takes the template's name.
  expect(await dialog.getByTestId('prompt-input').getAttribute('placeholder')).toBe('Knowledge base');
  await dialog.getByTestId('prompt-input').fill('Help centre');
  await shots(page, 'chooser');
  expect(seriousFindings(await axeScan(page))).toEqual([]);

  await dialog.getByTestId('prompt-ok').click();
  await page.waitForURL((url) => url.pathname.startsWith('/app/s/'));
  const tree = page.getByTestId('page-tree');
  await poll(() => tree.getByTestId('tree-row').count()).toBeGreaterThanOrEqual(4);
  const rows = () => tree.getByTestId('tree-row').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
  await poll(rows).toEqual(
    expect.arrayContaining(['🏠 Help centre', '👤 Account and billing', '🛠️ Troubleshooting', '✉️ Contact support']),
  );
  await page.screenshot({ path: `${SHOTS}/space-1280-light.png` });
  await e2e.screenshotEveryWay(page, 'templates-space');

  // The same through the API: the space is named as typed, and holds the template's tree.
  const spaceId = new URL(page.url()).pathname.split('/')[3]!;
  const space = (await e2e.server.client.spaces.getSpaceById(spaceId)).data;
  expect(space.title).toBe('Help centre');
  const listed = (await e2e.server.client.spaces.listPages(spaceId)).data.pages;
  expect(listed.map((p) => p.title)).toEqual([
    'Help centre',
    'Account and billing',
    'Troubleshooting',
    'Contact support',
  ]);
  const account = listed[1] as { pages: { title: string }[] };
  expect(account.pages.map((p) => p.title)).toEqual(['Reset your password', 'Change your plan']);
});

it('still creates a blank space, titled as typed, with no pages', async () => {
  const orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Blank Org' })).data.id;
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${e2e.server.url}/app/o/${orgId}`);
  await fillTokenSignIn(page, e2e.server.url, e2e.server.adminToken);
  await page.getByTestId('org-new-space').click();
  const dialog = page.getByTestId('new-space-dialog');
  // No title and no template: the dialog says what is missing and stays open.
  await dialog.getByTestId('prompt-ok').click();
  await poll(() => dialog.getByTestId('form-dialog-error').textContent()).toBe('Give the space a title.');
  await dialog.getByTestId('prompt-input').fill('Notes');
  await dialog.getByTestId('prompt-ok').click();
  await page.waitForURL((url) => url.pathname.startsWith('/app/s/'));
  const spaceId = new URL(page.url()).pathname.split('/')[3]!;
  expect((await e2e.server.client.spaces.getSpaceById(spaceId)).data.title).toBe('Notes');
  expect((await e2e.server.client.spaces.listPages(spaceId)).data.pages).toEqual([]);
});
