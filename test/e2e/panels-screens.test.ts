import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { newMember } from '../helpers/people';
import { seedPages, updatePages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { answerPrompt, openSpaceThroughUi, syncState, typeInEditor } from '../helpers/web-app';

/**
 * The workspace's side panels (change requests, history, comments) as components: what they start
 * stops when the workspace closes, and how they look at desktop and phone widths, light and dark
 * (screenshots panels-*.png).
 */

const e2e = useChromium({ app: true, people: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function online(page: Page) {
  await eventually(async () => (await syncState(page)) === 'online', 'sync');
}

/** A space with one page saved in two versions (so it has a history). */
async function spaceWithHistory(title: string) {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: `${title} Org` })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: `${title} space` })).data.id;
  const pageId = (await seedPages(t, spaceId, [{ ref: 'page', title, markdown: 'Install with the installer.\n' }]))
    .page!;
  await updatePages(t, spaceId, [{ page: pageId, markdown: 'Install with the installer, then sign in.\n' }]);
  return { orgId, spaceId, pageId };
}

it('stops re-reading an open change request once the workspace closes', async () => {
  const t = e2e.server;
  const { spaceId } = await spaceWithHistory('Stopping');
  const page = await e2e.newPage(DESKTOP);
  await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
  await online(page);
  await page.getByTestId('cr-new').click();
  await answerPrompt(page, 'Short-lived');
  await page.getByTestId('cr-badge').waitFor();
  await page.getByTestId('cr-status').waitFor();

  // Count the panel's reads of change requests (it re-reads the open one every 10 s while shown).
  let reads = 0;
  page.on('request', (request) => {
    if (request.method() === 'GET' && /\/change-requests\//.test(request.url())) reads++;
  });
  await page.getByTestId('to-picker').click();
  await page.getByTestId('org-list').waitFor();
  reads = 0;
  await page.waitForTimeout(12_000);
  expect(reads).toBe(0);
  await page.close();
}, 60_000);

it('draws the panels at desktop and phone widths, light and dark', async () => {
  const t = e2e.server;
  const { orgId, spaceId } = await spaceWithHistory('Panels');
  await newMember(t, orgId, 'review', 'Rita Reviewer');

  // Set the scene once: a comment with a reply, and a change request with an edit and a reviewer asked.
  const setup = await e2e.newPage(DESKTOP);
  await openSpaceThroughUi(setup, t.url, t.adminToken, spaceId);
  await online(setup);
  await setup.getByTestId('comment-input').fill('Should this mention single sign-on?');
  await setup.getByTestId('comment-post').click();
  await setup.getByTestId('comment').first().getByTestId('reply-input').fill('Yes, in the next section.');
  await setup.getByTestId('comment').first().getByTestId('reply-input').press('Enter');
  await expect.poll(() => setup.getByTestId('reply').count()).toBe(1);
  await setup.getByTestId('cr-new').click();
  await answerPrompt(setup, 'Explain upgrades');
  await setup.getByTestId('cr-badge').waitFor();
  await typeInEditor(setup, ' Upgrade by running it again.');
  await expect
    .poll(() => setup.getByTestId('cr-change-kind').allTextContents(), { timeout: 30_000 })
    .toEqual(['Edited']);
  await setup.getByTestId('cr-request-reviewers').click();
  await setup.getByTestId('reviewer-dialog').getByText('Rita Reviewer').click();
  await setup.getByTestId('reviewers-ok').click();
  await expect.poll(() => setup.getByTestId('cr-reviewer').allTextContents()).toEqual(['Rita ReviewerPending']);
  await online(setup);
  await setup.close();

  for (const [name, options] of [
    ['desktop-light', { ...DESKTOP, colorScheme: 'light' as const }],
    ['desktop-dark', { ...DESKTOP, colorScheme: 'dark' as const }],
    ['phone-light', { ...PHONE, colorScheme: 'light' as const }],
    ['phone-dark', { ...PHONE, colorScheme: 'dark' as const }],
  ] as const) {
    const page = await e2e.newPage(options);
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await online(page);
    await page.getByTestId('cr-item').first().waitFor();
    await page.getByTestId('history-toggle').click();
    await page.getByTestId('history-item').first().waitFor();
    await expect.poll(() => page.getByTestId('comment-body').count()).toBe(2);
    await page.getByTestId('cr-panel').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, `panels-main-${name}`);
    await page.getByTestId('comments-panel').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, `panels-comments-${name}`);

    // The change request opened: changed pages, reviews, actions.
    await page.getByTestId('cr-item').filter({ hasText: 'Explain upgrades' }).click();
    await page.getByTestId('cr-badge').waitFor();
    await online(page);
    await expect
      .poll(() => page.getByTestId('cr-change-kind').allTextContents(), { timeout: 30_000 })
      .toEqual(['Edited']);
    await expect.poll(() => page.getByTestId('cr-reviewer').allTextContents()).toEqual(['Rita ReviewerPending']);
    await page.getByTestId('cr-panel').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, `panels-change-request-${name}`);
    await page.getByTestId('cr-request-reviewers').click();
    await page.getByTestId('reviewer-option').first().waitFor();
    await e2e.screenshot(page, `panels-reviewers-${name}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('reviewer-dialog').count()).toBe(0);
    await page.getByTestId('cr-view-diff').click();
    await page.getByTestId('diff-words').waitFor();
    await e2e.screenshot(page, `panels-diff-${name}`);
    await page.getByTestId('diff-close').click();
    await expect.poll(() => page.getByTestId('diff-dialog').count()).toBe(0);
    await page.close();
  }
}, 240_000);
