import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import * as Y from 'yjs';
import { DiscussionDoc } from '../../shared/discussion/discussion-doc';
import { launchChromium, saveScreenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createPageThroughUi, eventually, requireBuiltRenderer, signInThroughUi, syncState } from '../helpers/web-app';

/**
 * A cached discussion that holds data the server lacks (its data was reset,
 * or restored from an older backup): the server refuses the client's writes
 * to discussions (close 4403), so the app drops its local copy and syncs the
 * server's afresh instead of staying "Read-only" for good.
 */

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  requireBuiltRenderer();
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: '50' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The y-indexeddb database of a space's discussion (renderer/src/sync/doc-session.ts storageNameOf). */
function discussionDb(spaceId: string): string {
  return `folio:${t.url}:${spaceId}/discussion`;
}

/** Appends an update to a y-indexeddb database, as y-indexeddb itself stores them. */
function appendStoredUpdate(page: Page, db: string, update: Uint8Array): Promise<void> {
  return page.evaluate(
    ({ db, bytes }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(db);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('updates', 'readwrite');
          tx.objectStore('updates').add(new Uint8Array(bytes));
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    { db, bytes: Array.from(update) },
  );
}

/** The comments the local copy in IndexedDB holds (all stored updates merged). */
async function storedComments(page: Page, db: string): Promise<string[]> {
  const updates = await page.evaluate(
    (db) =>
      new Promise<number[][]>((resolve, reject) => {
        const open = indexedDB.open(db);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('updates', 'readonly').objectStore('updates').getAll();
          request.onsuccess = () => (
            open.result.close(),
            resolve((request.result as Uint8Array[]).map((u) => Array.from(u)))
          );
          request.onerror = () => reject(request.error);
        };
      }),
    db,
  );
  const doc = new Y.Doc();
  for (const update of updates) Y.applyUpdate(doc, new Uint8Array(update));
  return new DiscussionDoc(doc).listComments().map((c) => c.markdown);
}

it('drops a cached discussion the server refuses and resyncs it from the server', async () => {
  const orgId = (await t.client.orgs.createOrganization({ title: 'Resync Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  const page = await browser.newPage();
  await page.goto(`${t.url}/app/`);
  await signInThroughUi(page, t.url, t.adminToken);
  await page.locator(`[data-testid=space][data-space-id="${spaceId}"]`).click();
  await createPageThroughUi(page, 'Install');
  const pageId = /\/pages\/([A-Za-z0-9_-]+)/.exec(page.url())![1]!;
  await page.getByTestId('comment-input').fill('A real comment');
  await page.getByTestId('comment-post').click();
  await expect.poll(() => page.getByTestId('comment-body').allTextContents()).toEqual(['A real comment']);
  await eventually(async () => (await syncState(page)) === 'online', 'the first sync');

  // Leave the space (its documents close), then slip a comment the server never had into the cached copy.
  await page.getByTestId('to-picker').click();
  await page.getByTestId('org-list').waitFor();
  const stray = new Y.Doc();
  new DiscussionDoc(stray).postComment({
    author: 'ghost',
    markdown: 'A comment the server lost',
    target: { page: pageId },
  });
  await appendStoredUpdate(page, discussionDb(spaceId), Y.encodeStateAsUpdate(stray));
  expect((await storedComments(page, discussionDb(spaceId))).sort()).toEqual([
    'A comment the server lost',
    'A real comment',
  ]);

  // Reopen: the server refuses the stray write (4403); the app drops its copy and shows the server's.
  await page.locator(`[data-testid=space][data-space-id="${spaceId}"]`).click();
  await eventually(async () => (await syncState(page)) === 'online', 'online after the resync');
  await expect.poll(() => page.getByTestId('comment-body').allTextContents()).toEqual(['A real comment']);
  await eventually(
    async () =>
      JSON.stringify(await storedComments(page, discussionDb(spaceId))) === JSON.stringify(['A real comment']),
    'the local copy to hold only the server’s comments',
  );
  const onServer = (await t.client.spaces.listCommentsInSpace(spaceId)).data.items;
  expect(onServer.map((c) => c.body)).toEqual([{ markdown: 'A real comment' }]);
  await saveScreenshot(page, 'desktop-discussion-resynced');

  // A reload opens the clean copy: no refusal, comments still there; posting still works.
  await page.reload();
  await expect.poll(() => page.getByTestId('comment-body').allTextContents()).toEqual(['A real comment']);
  await eventually(async () => (await syncState(page)) === 'online', 'online after a reload');
  await page.getByTestId('comment-input').fill('Posted after the resync');
  await page.getByTestId('comment-post').click();
  await expect
    .poll(() => page.getByTestId('comment-body').allTextContents())
    .toEqual(['A real comment', 'Posted after the resync']);
  expect(await syncState(page)).toBe('online');
  await page.close();
});
