import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { openSpaceThroughUi, syncState } from '../helpers/web-app';

/**
 * The comments panel keeps what is being typed: two people on the same page; while one types a
 * reply (not sent yet) the other comments, replies and resolves, and the half-typed text, the
 * focus and the caret all stay where they were. Sent, the reply reaches both.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

/** The focused element's test id, value and caret. */
function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | HTMLTextAreaElement | null;
    return { testid: el?.dataset.testid, value: el?.value, caret: el?.selectionStart };
  });
}

async function post(page: Page, text: string): Promise<void> {
  await page.getByTestId('comment-input').fill(text);
  await page.getByTestId('comment-post').click();
}

it('keeps a half-typed reply, its focus and its caret while another client comments, replies and resolves', async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Typing Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Typing space' })).data.id;
  await seedPages(t, spaceId, [{ ref: 'faq', title: 'FAQ', markdown: 'Questions and answers.\n' }]);

  const a = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  const b = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await openSpaceThroughUi(a, t.url, t.adminToken, spaceId);
  await openSpaceThroughUi(b, t.url, t.adminToken, spaceId);
  for (const page of [a, b]) await eventually(async () => (await syncState(page)) === 'online', 'sync');

  await post(a, 'Is this page up to date?');
  const bodies = (page: Page) => page.getByTestId('comment-body').allTextContents();
  await expect.poll(() => bodies(b)).toEqual(['Is this page up to date?']);

  // A drafts a new comment, then starts a reply and moves the caret back into the word.
  await a.getByTestId('comment-input').fill('A draft comment, not posted');
  const replyBox = a.getByTestId('comment').first().getByTestId('reply-input');
  await replyBox.click();
  await a.keyboard.type('Yes, checked last week');
  for (let i = 0; i < 5; i++) await a.keyboard.press('ArrowLeft');
  const typing = { testid: 'reply-input', value: 'Yes, checked last week', caret: 17 };
  expect(await focusState(a)).toEqual(typing);

  // B comments: A's list grows, A's reply box is untouched.
  await post(b, 'A comment from B');
  await expect.poll(() => bodies(a)).toContain('A comment from B');
  expect(await focusState(a)).toEqual(typing);

  // B replies to the first comment: the reply arrives in the very thread A is typing in.
  const bThread = b.getByTestId('comment').first();
  await bThread.getByTestId('reply-input').fill('I think so');
  await bThread.getByTestId('reply-input').press('Enter');
  await expect
    .poll(() => a.getByTestId('comment').first().getByTestId('reply').getByTestId('comment-body').allTextContents())
    .toEqual(['I think so']);
  expect(await focusState(a)).toEqual(typing);

  // B resolves its own comment: it leaves A's list.
  await b.getByTestId('comment').filter({ hasText: 'A comment from B' }).getByTestId('comment-resolve').click();
  await expect.poll(() => bodies(a)).not.toContain('A comment from B');
  expect(await focusState(a)).toEqual(typing);
  expect(await a.getByTestId('comment-input').inputValue()).toBe('A draft comment, not posted');

  // A goes on typing where the caret was, then sends: both see the reply; the draft comment stays.
  await a.keyboard.type(' (really)');
  expect((await focusState(a)).value).toBe('Yes, checked last (really) week');
  await a.keyboard.press('Enter');
  for (const page of [a, b])
    await expect
      .poll(() =>
        page.getByTestId('comment').first().getByTestId('reply').getByTestId('comment-body').allTextContents(),
      )
      .toEqual(['I think so', 'Yes, checked last (really) week']);
  expect(await replyBox.inputValue()).toBe('');
  expect(await a.getByTestId('comment-input').inputValue()).toBe('A draft comment, not posted');
  await e2e.screenshot(a, 'panels-comments-kept-typing');
  await a.close();
  await b.close();
});
