import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { newMember } from '../helpers/people';
import { seedPages, updatePages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { answerPrompt, editorText, openSpaceThroughUi, syncState } from '../helpers/web-app';

/**
 * Reviewing and history in the app: a change request reviewed through its
 * word diff (and raw markdown diff), approved by a second person, merged;
 * a page restored from its history, which REST then serves.
 * Screenshots: desktop and phone, light and dark.
 */

// People: Rita signs up through the server's OpenID provider (people.ts).
const e2e = useChromium({ app: true, people: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

// bypassCSP: the axe scan is an injected script, which the app's own policy rightly forbids.
const DESKTOP = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A space with one page, stored as a revision (a merged change request: what a change request forks from). */
async function spaceWithPage(title: string, markdown: string) {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: `${title} Org` })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: `${title} space` })).data.id;
  const pageId = (await seedPages(t, spaceId, [{ ref: 'page', title, markdown }])).page!;
  return { orgId, spaceId, pageId };
}

/**
 * A later version of the page: another merged change request, so another revision of the space,
 * made after the first one (the history lists both).
 */
async function laterVersion(spaceId: string, pageId: string, markdown: string): Promise<void> {
  await updatePages(e2e.server, spaceId, [{ page: pageId, markdown }]);
}

const markdownOverRest = async (spaceId: string, pageId: string) =>
  ((await e2e.server.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data as { markdown?: string })
    .markdown;

/** Serious and critical axe-core violations inside `selector`. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  return seriousFindings(await axeScan(page, selector));
}

async function online(page: Page) {
  await eventually(async () => (await syncState(page)) === 'online', 'sync');
}

it('reviews a change request through its diff, a second user approves it, and it is merged', async () => {
  const t = e2e.server;
  const { orgId, spaceId, pageId } = await spaceWithPage('Guide', 'The quick brown fox jumps over the lazy dog.\n');
  const reviewer = await newMember(t, orgId, 'review', 'Rita Reviewer');

  const author = await (await e2e.newContext(DESKTOP)).newPage();
  await openSpaceThroughUi(author, t.url, t.adminToken, spaceId);
  await online(author);
  await author.getByTestId('cr-new').click();
  await answerPrompt(author, 'Cats, not dogs');
  await author.getByTestId('cr-badge').waitFor();
  await expect.poll(() => editorText(author)).toContain('The quick brown fox jumps over the lazy dog.');

  // Edit inside the change request: replace "dog" with "cat".
  await author.getByTestId('editor-content').click();
  await author.keyboard.press('Control+End');
  // The text ends with a new line: step back onto the sentence's line.
  await author.keyboard.press('ArrowLeft');
  for (let i = 0; i < 4; i++) await author.keyboard.press('Backspace');
  await author.keyboard.type('cat.');
  await expect.poll(() => editorText(author)).toContain('The quick brown fox jumps over the lazy cat.');

  // The changed-pages list follows the edit live (no refresh), with a readable label.
  const change = author.locator(`[data-testid=cr-change][data-page="${pageId}"]`);
  await expect
    .poll(() => change.getByTestId('cr-change-kind').allTextContents(), { timeout: 30_000 })
    .toEqual(['Edited']);
  await author.getByTestId('cr-status').selectOption('open');

  // The diff marks exactly the changed words.
  await change.getByTestId('cr-view-diff').click();
  const dialog = author.getByTestId('diff-dialog');
  await dialog.getByTestId('diff-words').waitFor();
  expect(await dialog.locator('ins[data-diff=added]').allTextContents()).toEqual(['[added: cat]']);
  expect(await dialog.locator('del[data-diff=removed]').allTextContents()).toEqual(['[removed: dog]']);
  expect(await dialog.getByTestId('diff-summary').textContent()).toBe('1 word added, 1 word removed');
  await e2e.screenshot(author, 'review-diff-words-desktop-light');
  expect(await axeViolations(author, '[data-testid=diff-dialog]')).toEqual([]);
  await dialog.getByTestId('diff-mode-lines').click();
  const lines = dialog.getByTestId('diff-lines');
  expect(await lines.locator('tr[data-diff=removed] .diff-code').allTextContents()).toEqual([
    'The quick brown fox jumps over the lazy dog.',
  ]);
  expect(await lines.locator('tr[data-diff=added] .diff-code').allTextContents()).toEqual([
    'The quick brown fox jumps over the lazy cat.',
  ]);
  await e2e.screenshot(author, 'review-diff-markdown-desktop-light');
  expect(await axeViolations(author, '[data-testid=diff-dialog]')).toEqual([]);
  await dialog.getByTestId('diff-close').click();

  // Ask Rita to review.
  await author.getByTestId('cr-request-reviewers').click();
  const picker = author.getByTestId('reviewer-dialog');
  await picker.getByText('Rita Reviewer').click();
  await picker.getByTestId('reviewers-ok').click();
  await expect.poll(() => author.getByTestId('cr-reviewer').allTextContents()).toEqual(['Rita ReviewerPending']);
  await e2e.screenshot(author, 'review-requested-desktop-light');

  // Rita, in her own browser (dark theme), opens the request from the list, reads the diff and approves.
  const rita = await (await e2e.newContext({ ...DESKTOP, colorScheme: 'dark' })).newPage();
  await openSpaceThroughUi(rita, t.url, reviewer.token, spaceId);
  await rita.getByTestId('cr-item').filter({ hasText: 'Cats, not dogs' }).click();
  await rita.getByTestId('cr-badge').waitFor();
  await online(rita);
  await rita.locator(`[data-testid=cr-change][data-page="${pageId}"]`).getByTestId('cr-view-diff').click();
  await rita.getByTestId('diff-words').waitFor();
  expect(await rita.locator('ins[data-diff=added]').allTextContents()).toEqual(['[added: cat]']);
  await e2e.screenshot(rita, 'review-diff-words-desktop-dark');
  await rita.keyboard.press('Escape');
  await rita.getByTestId('cr-approve').click();
  await rita.getByTestId('review-comment').fill('Cats are better.');
  await rita.getByTestId('review-submit').click();
  await expect.poll(() => rita.getByTestId('cr-review-summary').textContent()).toBe('1 approval');
  await e2e.screenshot(rita, 'review-approved-desktop-dark');
  const crId = (await t.client.spaces.listChangeRequestsForSpace(spaceId)).data.items[0]!.id;
  const reviews = (await t.client.spaces.getReviewsByChangeRequestId(spaceId, crId)).data.items;
  expect(reviews.map((r) => [r.reviewer.id, r.status])).toEqual([[reviewer.id, 'approved']]);

  // On a phone (light): the same request and its diff, full screen.
  const phone = await (await e2e.newContext({ ...PHONE, colorScheme: 'light' })).newPage();
  await openSpaceThroughUi(phone, t.url, t.adminToken, spaceId);
  await phone.getByTestId('cr-item').filter({ hasText: 'Cats, not dogs' }).click();
  await phone.getByTestId('cr-badge').waitFor();
  await online(phone);
  await expect.poll(() => phone.getByTestId('cr-review-summary').textContent()).toBe('1 approval');
  await phone.getByTestId('cr-panel').scrollIntoViewIfNeeded();
  await e2e.screenshot(phone, 'review-panel-phone-light');
  await phone.locator(`[data-testid=cr-change][data-page="${pageId}"]`).getByTestId('cr-view-diff').click();
  await phone.getByTestId('diff-words').waitFor();
  await e2e.screenshot(phone, 'review-diff-words-phone-light');
  await phone.close();

  // The author sees the review state before merging, then merges.
  await author.getByTestId('cr-changes-refresh').click();
  await expect.poll(() => author.getByTestId('cr-merge-state').textContent()).toBe('Before merging: 1 approval.');
  await expect.poll(() => author.getByTestId('cr-reviewer').allTextContents()).toEqual(['Rita ReviewerApproved']);
  await e2e.screenshot(author, 'review-before-merge-desktop-light');
  expect(await axeViolations(author, '[data-testid=cr-panel]')).toEqual([]);
  await author.getByTestId('cr-merge').click();
  await author.getByTestId('confirm-yes').click();
  await expect.poll(() => author.getByTestId('cr-badge').count()).toBe(0);
  await eventually(
    async () => (await markdownOverRest(spaceId, pageId)) === 'The quick brown fox jumps over the lazy cat.\n',
    'the merged text over REST',
  );

  // The merged list shows it (beside the change request that wrote the page first).
  await author.getByTestId('cr-tab-merged').click();
  await expect.poll(() => author.getByTestId('cr-list-merged').textContent()).toContain('Cats, not dogs');
  await e2e.screenshot(author, 'review-merged-list-desktop-light');

  // A merged request still shows what it changed: its diff comes from its revisions on the server.
  await author.getByTestId('cr-list-merged').getByTestId('cr-item').filter({ hasText: 'Cats, not dogs' }).click();
  await author.getByTestId('cr-badge').waitFor();
  const merged = author.locator(`[data-testid=cr-change][data-page="${pageId}"]`);
  await merged.getByTestId('cr-view-diff').click();
  await author.getByTestId('diff-words').waitFor();
  expect(await author.locator('ins[data-diff=added]').allTextContents()).toEqual(['[added: cat]']);
  expect(await author.locator('del[data-diff=removed]').allTextContents()).toEqual(['[removed: dog]']);
}, 120_000);

it('restores a page from its history as an edit, and REST serves the old version', async () => {
  const t = e2e.server;
  // The page "Policy" (its title; REST reads a leading "# Policy" as the title, so the body starts after it).
  const v1 = 'Refunds within 30 days.\n\nContact support by email.\n';
  const { spaceId, pageId } = await spaceWithPage('Policy', v1);
  const v2 = 'Refunds within 14 days.\n\nContact support by phone.\n';
  const v1Revision = (await t.client.spaces.getSpaceById(spaceId)).data.revision;
  // A later edit changes both paragraphs.
  await laterVersion(spaceId, pageId, v2);

  // The phone first: it only looks; the desktop then restores.
  for (const [name, options] of [
    ['phone-dark', { ...PHONE, colorScheme: 'dark' as const }],
    ['desktop-light', { ...DESKTOP, colorScheme: 'light' as const }],
  ] as const) {
    const page = await (await e2e.newContext(options)).newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await online(page);
    await page.getByTestId('history-toggle').click();
    const item = page.locator(`[data-testid=history-item][data-revision="${v1Revision}"]`);
    await item.waitFor();
    expect(await page.getByTestId('history-item').count()).toBeGreaterThanOrEqual(2);
    await item.scrollIntoViewIfNeeded();
    await e2e.screenshot(page, `history-panel-${name}`);
    if (name === 'desktop-light') expect(await axeViolations(page, '[data-testid=history-panel]')).toEqual([]);
    await item.getByTestId('history-compare').click();
    const dialog = page.getByTestId('diff-dialog');
    await dialog.getByTestId('diff-words').waitFor();
    // Old version on the left of the arrow: what a restore would bring back is marked "removed" now.
    expect(await dialog.locator('del[data-diff=removed]').allTextContents()).toEqual([
      '[removed: 30]',
      '[removed: email]',
    ]);
    await e2e.screenshot(page, `history-diff-${name}`);
    if (name === 'phone-dark') {
      await dialog.getByTestId('diff-close').click();
      continue;
    }
    await dialog.getByTestId('history-restore').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => page.getByTestId('diff-dialog').count()).toBe(0);
    await expect.poll(() => editorText(page)).toContain('Refunds within 30 days.');
    expect(await editorText(page)).toContain('Contact support by email.');
    await eventually(async () => (await markdownOverRest(spaceId, pageId)) === v1, 'the restored text over REST');
    await e2e.screenshot(page, `history-restored-${name}`);
    // The restore is one ordinary edit: one undo in the editor takes it back, and that syncs too.
    await page.getByTestId('editor-content').click();
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page)).toContain('Refunds within 14 days.');
    expect(await editorText(page)).toContain('Contact support by phone.');
    await eventually(async () => (await markdownOverRest(spaceId, pageId)) === v2, 'the undone restore over REST');
  }
}, 120_000);

it('shows a diff rendered as the page reads: marks inside headings, lists, tables, code and hints', async () => {
  const t = e2e.server;
  const v1 = [
    // A line before the heading: REST would read a leading "# Deploying" as the page's title.
    'Release notes for the team.',
    '',
    '# Deploying',
    '',
    'Deploy the app with the command line tool.',
    '',
    '- Build the bundle',
    '- Upload it to staging',
    '',
    '| Step | Time |',
    '| ---- | ---- |',
    '| Build | 2 minutes |',
    '',
    '```sh',
    'folio deploy --env staging',
    '```',
    '',
    '{% hint style="warning" %}',
    'Deploys on Friday need an approval.',
    '{% endhint %}',
    '',
    'This paragraph is outdated and goes away.',
    '',
  ].join('\n');
  const v2 = v1
    .replace('with the command line tool', 'with the Folio CLI')
    .replace('Upload it to staging', 'Upload it to production')
    .replace('| Build | 2 minutes |', '| Build | 90 seconds |')
    .replace('--env staging', '--env production')
    .replace('need an approval', 'need two approvals')
    .replace('This paragraph is outdated and goes away.\n', '## Rollback\n\nRun `folio rollback` to undo a deploy.\n');
  const { spaceId, pageId } = await spaceWithPage('Deploying', v1);
  const v1Revision = (await t.client.spaces.getSpaceById(spaceId)).data.revision;
  await laterVersion(spaceId, pageId, v2);

  for (const [name, options] of [
    ['desktop-light', { ...DESKTOP, colorScheme: 'light' as const }],
    ['desktop-dark', { ...DESKTOP, colorScheme: 'dark' as const }],
    ['phone-light', { ...PHONE, colorScheme: 'light' as const }],
    ['phone-dark', { ...PHONE, colorScheme: 'dark' as const }],
  ] as const) {
    const page = await (await e2e.newContext(options)).newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await online(page);
    await page.getByTestId('history-toggle').click();
    const item = page.locator(`[data-testid=history-item][data-revision="${v1Revision}"]`);
    await item.waitFor();
    await item.getByTestId('history-compare').click();
    const words = page.getByTestId('diff-dialog').getByTestId('diff-words');
    await words.waitFor();
    const marks = async (selector: string) => words.locator(selector).allTextContents();
    // Each change is marked inside the element that renders it, with the formatting kept.
    expect(await marks('p ins[data-diff=added]')).toContain('[added: Folio CLI]');
    expect(await marks('p del[data-diff=removed]')).toContain('[removed: command line tool]');
    expect(await marks('li del[data-diff=removed]')).toEqual(['[removed: staging]']);
    expect(await marks('li ins[data-diff=added]')).toEqual(['[added: production]']);
    expect(await marks('td ins[data-diff=added]')).toEqual(['[added: 90 seconds]']);
    expect(await marks('pre code ins[data-diff=added]')).toEqual(['[added: production]']);
    expect(await marks('.folio-hint-warning ins[data-diff=added]')).toEqual(['[added: two approvals]']);
    // Whole blocks: the removed paragraph struck through, the new section added, rendered (a heading, code).
    expect(await marks('del[data-diff=block-removed] p')).toEqual(['This paragraph is outdated and goes away.']);
    expect(await marks('ins[data-diff=block-added] h2')).toEqual(['Rollback']);
    expect(await marks('ins[data-diff=block-added] p code')).toEqual(['folio rollback']);
    // Unchanged blocks render as they read, without marks.
    expect(await marks('h1')).toEqual(['Deploying']);
    expect(await words.locator('h1 :is(ins, del)').count()).toBe(0);
    expect(await words.textContent()).not.toContain('{%');
    await e2e.screenshot(page, `diff-rendered-${name}`);
    await words.locator('ins[data-diff=block-added]').last().scrollIntoViewIfNeeded();
    await e2e.screenshot(page, `diff-rendered-end-${name}`);
    if (name === 'desktop-light' || name === 'desktop-dark')
      expect(await axeViolations(page, '[data-testid=diff-dialog]')).toEqual([]);
    // The raw markdown diff is still one click away.
    await page.getByTestId('diff-mode-lines').click();
    expect(await page.getByTestId('diff-lines').locator('tr[data-diff=added] .diff-code').allTextContents()).toContain(
      '| Build | 90 seconds |',
    );
    if (name === 'desktop-light') await e2e.screenshot(page, `diff-rendered-markdown-${name}`);
    await page.close();
  }
}, 180_000);
