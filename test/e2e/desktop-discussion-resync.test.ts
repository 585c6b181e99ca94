import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import * as Y from 'yjs';
import { DiscussionDoc } from '../../shared/discussion/discussion-doc';
import { storageNameOf } from '../../renderer/src/sync/doc-session';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import { createPageThroughUi, openPageId, openSpaceThroughUi, pickSpaceThroughUi, syncState } from '../helpers/web-app';

/**
 * A cached discussion that holds data the server lacks (its data was reset,
 * or restored from an older backup): the server refuses the client's writes
 * to discussions (CloseCode.readOnly, 4403), so the app drops its local copy and syncs the
 * server's afresh instead of staying "Read-only" for good.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

/** The y-indexeddb database of a space's discussion, as the app names it. */
function discussionDb(spaceId: string): string {
  return storageNameOf(e2e.server.url, { spaceId, kind: 'discussion' });
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
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Resync Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  const page = await e2e.newPage();
  await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
  await createPageThroughUi(page, 'Install');
  const pageId = openPageId(page);
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

  // Reopen: the server refuses the stray write (CloseCode.readOnly); the app drops its copy and shows the server's.
  await pickSpaceThroughUi(page, spaceId);
  await eventually(async () => (await syncState(page)) === 'online', 'online after the resync');
  // "Online" can show before the refusal (the server's sync answer comes first): the drop, the
  // IndexedDB delete and the fresh sync may all still be ahead, so wait as long as for the sync.
  await expect
    .poll(() => page.getByTestId('comment-body').allTextContents(), { timeout: 15_000 })
    .toEqual(['A real comment']);
  await eventually(
    async () =>
      JSON.stringify(await storedComments(page, discussionDb(spaceId))) === JSON.stringify(['A real comment']),
    'the local copy to hold only the server’s comments',
  );
  const onServer = (await t.client.spaces.listCommentsInSpace(spaceId)).data.items;
  expect(onServer.map((c) => c.body)).toEqual([{ markdown: 'A real comment' }]);
  await e2e.screenshot(page, 'desktop-discussion-resynced');

  // A reload opens the clean copy: no refusal, comments still there; posting still works.
  await page.reload();
  await expect.poll(() => page.getByTestId('comment-body').allTextContents()).toEqual(['A real comment']);
  await eventually(async () => (await syncState(page)) === 'online', 'online after a reload');
  await page.getByTestId('comment-input').fill('Posted after the resync');
  await page.getByTestId('comment-post').click();
  await expect
    .poll(() => page.getByTestId('comment-body').allTextContents())
    .toEqual(['A real comment', 'Posted after the resync']);
  // The comment can arrive over the socket a moment before the post's own answer empties the outbox.
  await eventually(async () => (await syncState(page)) === 'online', 'online after posting');
  await page.close();
});
