import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ok } from '../helpers/api';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import {
  answerPrompt,
  createPageThroughUi,
  editorText,
  openPageId,
  openSpaceThroughUi,
  syncState,
  typeInEditor,
} from '../helpers/web-app';

/**
 * The page tree's keyboard operations, comment replies, reactions and
 * resolving, and a change request updated from main — each driven through
 * the app in Chromium and checked through the REST API.
 */

// Quiet period of 50 ms: REST content reads serve revisions, made after typing pauses.
const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Tree Org' })).data.id;
});

function row(page: Page, pageId: string) {
  return page.locator(`[data-testid=tree-row][data-page-id="${pageId}"]`);
}

/** A page outline: title, then its sub-pages. */
type Outline = (string | Outline)[];

/** The space's pages from `GET /v1/spaces/{id}/content` (the latest revision): titles in order, sub-pages nested. */
async function restOutline(spaceId: string): Promise<Outline> {
  const revision = await ok('getCurrentRevision', e2e.server.client.spaces.getCurrentRevision(spaceId));
  const walk = (pages: { title: string; pages?: unknown[] }[]): Outline =>
    pages.flatMap((p) => (p.pages?.length ? [p.title, walk(p.pages as { title: string }[])] : [p.title]));
  return walk(revision.pages as { title: string; pages?: unknown[] }[]);
}

/** The tree as the app shows it, in the same shape. */
function uiOutline(page: Page): Promise<Outline> {
  return page.getByTestId('page-tree').evaluate((tree) => {
    const walk = (ul: Element): unknown[] =>
      Array.from(ul.children).flatMap((li) => {
        const title = li.querySelector(':scope > .tree-row .tree-title')?.textContent ?? '';
        const sub = li.querySelector(':scope > ul');
        return sub ? [title, walk(sub)] : [title];
      });
    const root = tree.querySelector('.tree-list > ul');
    return root ? walk(root) : [];
  }) as Promise<Outline>;
}

async function expectOutline(page: Page, spaceId: string, outline: Outline): Promise<void> {
  await expect.poll(() => uiOutline(page)).toEqual(outline);
  await eventually(
    async () => JSON.stringify(await restOutline(spaceId)) === JSON.stringify(outline),
    `REST outline ${JSON.stringify(outline)}`,
  );
}

describe('desktop app: tree, comments and change requests', () => {
  it('reorders, nests, renames and deletes pages with the keyboard; REST shows each result', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Keyboard tree' })).data.id;
    const page = await e2e.newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    const ids: Record<string, string> = {};
    for (const title of ['One', 'Two', 'Three']) {
      await createPageThroughUi(page, title);
      ids[title] = openPageId(page);
    }
    await expectOutline(page, spaceId, ['One', 'Two', 'Three']);

    // Alt+↑ moves "Three" above "Two"; Alt+↓ moves "One" below "Three"; focus follows the moved row.
    await row(page, ids.Three!).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => uiOutline(page)).toEqual(['One', 'Three', 'Two']);
    await row(page, ids.One!).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => uiOutline(page)).toEqual(['Three', 'One', 'Two']);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.pageId)).toBe(ids.One);
    // Alt+→ nests "Two" under its previous sibling, "One".
    await row(page, ids.Two!).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expectOutline(page, spaceId, ['Three', 'One', ['Two']]);

    // F2 renames.
    await row(page, ids.Three!).focus();
    await page.keyboard.press('F2');
    await answerPrompt(page, 'Overview');
    await expectOutline(page, spaceId, ['Overview', 'One', ['Two']]);

    // Delete asks first: cancelling keeps the page, confirming deletes it (and its sub-pages).
    await row(page, ids.Three!).focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => page.getByTestId('confirm-dialog').textContent()).toContain('Delete “Overview”');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await uiOutline(page)).toEqual(['Overview', 'One', ['Two']]);
    await row(page, ids.One!).focus();
    await page.keyboard.press('Delete');
    await page.getByTestId('confirm-yes').click();
    await expectOutline(page, spaceId, ['Overview']);
    await e2e.screenshot(page, 'desktop-tree-keyboard');
    await page.close();
  });

  it('replies to, reacts to and resolves a comment; REST shows each', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Discussed' })).data.id;
    const page = await e2e.newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'FAQ');
    await page.getByTestId('comment-input').fill('Is this up to date?');
    await page.getByTestId('comment-post').click();
    const comment = page.getByTestId('comment');
    await expect.poll(() => comment.count()).toBe(1);
    const commentId = (await comment.getAttribute('data-comment-id'))!;

    // Reply.
    await comment.getByTestId('reply-input').fill('Yes, checked last week.');
    await comment.getByTestId('reply-input').press('Enter');
    await expect
      .poll(() => comment.getByTestId('reply').getByTestId('comment-body').allTextContents())
      .toEqual(['Yes, checked last week.']);
    const replies = await ok(
      'listCommentRepliesInSpace',
      t.client.spaces.listCommentRepliesInSpace(spaceId, commentId, { format: 'markdown' }),
    );
    expect(replies.items.map((r) => r.body)).toEqual([{ markdown: 'Yes, checked last week.' }]);

    // React with 👍 on the comment (the first reaction button is the comment's own).
    await comment.getByTestId('reaction').first().click();
    await expect.poll(() => comment.getByTestId('reaction').first().textContent()).toBe('👍 1');
    expect(await comment.getByTestId('reaction').first().getAttribute('aria-pressed')).toBe('true');
    const reacted = await ok('listCommentsInSpace', t.client.spaces.listCommentsInSpace(spaceId));
    expect(reacted.items[0]!.reactions.map((r) => [r.emoji, r.count, r.users.map((u) => u.user.displayName)])).toEqual([
      ['👍', 1, ['Administrator']],
    ]);
    await e2e.screenshot(page, 'desktop-comment-thread');

    // Resolve: it leaves the list (resolved ones show on request) and is resolved on the server.
    await comment.getByTestId('comment-resolve').click();
    await expect.poll(() => comment.count()).toBe(0);
    const resolved = await ok('listCommentsInSpace', t.client.spaces.listCommentsInSpace(spaceId));
    expect(resolved.items.map((c) => c.status)).toEqual(['resolved']);
    await page.getByLabel('Show resolved').check();
    await expect.poll(() => page.getByTestId('comment-resolve').textContent()).toBe('Reopen');
    await page.close();
  });

  it('shows a change request as outdated when main moves on, and updates it from main', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Release notes' })).data.id;
    const context = await e2e.newContext();
    const page = await context.newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'Changes');
    const pageId = openPageId(page);
    await typeInEditor(page, 'Version 1.');
    await eventually(async () => (await syncState(page)) === 'online', 'sync');

    await page.getByTestId('cr-new').click();
    await answerPrompt(page, 'Describe version 2');
    await page.getByTestId('cr-badge').waitFor();
    await expect.poll(() => editorText(page)).toBe('Version 1.');
    await typeInEditor(page, '\nVersion 2 (draft).');
    expect(await page.getByTestId('cr-outdated').count()).toBe(0);

    // Someone edits the page on main meanwhile (a second window on the space's main content).
    const main = await context.newPage();
    await main.goto(`${t.url}/app/#/spaces/${spaceId}/pages/${pageId}`);
    await expect.poll(() => editorText(main)).toBe('Version 1.');
    await typeInEditor(main, 'Fixed on main. ', 'start');
    await eventually(
      async () =>
        ((await t.client.spaces.getPageById(spaceId, pageId)).data as { markdown?: string }).markdown?.includes(
          'Fixed on main.',
        ) ?? false,
      'the main edit in a revision',
    );

    // The change request shows as outdated (re-read on refresh, and periodically), then is updated from main.
    await eventually(async () => {
      await page.getByTestId('cr-changes-refresh').click();
      await page.getByTestId('cr-update').waitFor(); // the panel re-rendered with the fresh answer
      return (await page.getByTestId('cr-outdated').count()) === 1;
    }, 'the outdated badge');
    await e2e.screenshot(page, 'desktop-cr-outdated');
    await page.getByTestId('cr-update').click();
    await expect.poll(() => editorText(page)).toBe('Fixed on main. Version 1.\nVersion 2 (draft).');
    await expect.poll(() => page.getByTestId('cr-outdated').count()).toBe(0);
    expect(await syncState(page)).toBe('online');
    // Main itself is untouched by the change request.
    expect(await editorText(main)).toBe('Fixed on main. Version 1.');
    await e2e.screenshot(page, 'desktop-cr-updated');
    await context.close();
  });
});
