import { expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import { editorText, openSpaceThroughUi, pageThenChangeRequestThroughUi, typeInEditor } from '../helpers/web-app';

/**
 * Reviewing in the app: a change request is created, edited and merged from
 * the UI and the space shows the change; a comment posted while offline is
 * queued and arrives once the connection is back.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

it('creates, edits and merges a change request; a comment posted offline arrives after reconnecting', async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Review Org' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Manual' })).data.id;
  const context = await e2e.newContext();
  const page = await context.newPage();
  await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
  // A change request: created from the panel, the editor switches into it.
  await pageThenChangeRequestThroughUi(page, {
    title: 'Install',
    text: 'Run the installer.',
    subject: 'Explain upgrades',
  });
  await typeInEditor(page, ' To upgrade, run it again.');
  const crs = (await t.client.spaces.listChangeRequestsForSpace(spaceId, { status: 'draft' as never })).data.items;
  expect(crs.map((c) => c.subject)).toEqual(['Explain upgrades']);
  // Its changed pages list the edited page once the edit is in a revision. Wait for the server's
  // list, then reload the panel once: reloading again and again restarts its reads before they answer.
  await expect
    .poll(
      async () =>
        (await t.client.spaces.getChangeRequestChanges(spaceId, crs[0]!.id, { limit: 100 })).data.changes.map(
          (c) => (c as { page?: { title?: string } }).page?.title,
        ),
      { timeout: 15_000 },
    )
    .toContain('Install');
  await page.getByTestId('cr-changes-refresh').click();
  await expect.poll(() => page.getByTestId('cr-changes').textContent(), { timeout: 15_000 }).toContain('Install');
  // The space itself does not have the edit yet.
  const before = (await t.client.spaces.listPages(spaceId)).data.pages as { id: string }[];
  expect(
    ((await t.client.spaces.getPageById(spaceId, before[0]!.id)).data as { markdown?: string }).markdown,
  ).not.toContain('To upgrade');
  await page.getByTestId('cr-status').selectOption('open');
  await expect
    .poll(async () => (await t.client.spaces.getChangeRequestById(spaceId, crs[0]!.id)).data.status)
    .toBe('open');
  await e2e.screenshot(page, 'desktop-change-request');

  await page.getByTestId('cr-merge').click();
  await page.getByTestId('confirm-yes').click();
  await expect.poll(() => page.getByTestId('cr-badge').count()).toBe(0);
  await expect.poll(() => editorText(page)).toBe('Run the installer. To upgrade, run it again.');
  await expect
    .poll(async () => (await t.client.spaces.getChangeRequestById(spaceId, crs[0]!.id)).data.status)
    .toBe('merged');
  const pages = (await t.client.spaces.listPages(spaceId)).data.pages as { id: string; title: string }[];
  const installId = pages.find((p) => p.title === 'Install')!.id;
  await eventually(
    async () =>
      ((await t.client.spaces.getPageById(spaceId, installId)).data as { markdown?: string }).markdown?.includes(
        'To upgrade, run it again.',
      ) ?? false,
    'the merged text over REST',
  );

  // Offline: the comment waits in the outbox (shown as queued), then arrives on reconnect.
  await context.setOffline(true);
  await page.getByTestId('comment-input').fill('Should we mention rollbacks?');
  await page.getByTestId('comment-post').click();
  await page.getByTestId('comment-pending').waitFor();
  await expect.poll(() => page.getByTestId('sync-status').textContent()).toContain('1 queued');
  expect((await t.client.spaces.listCommentsInSpace(spaceId)).data.items).toHaveLength(0);
  await context.setOffline(false);
  await expect
    .poll(() => page.getByTestId('comment-body').allTextContents(), { timeout: 20_000 })
    .toEqual(['Should we mention rollbacks?']);
  await expect.poll(() => page.getByTestId('comment-pending').count()).toBe(0);
  const comments = (await t.client.spaces.listCommentsInSpace(spaceId)).data.items;
  expect(comments.map((c) => [c.body, c.target.page?.id])).toEqual([
    [{ markdown: 'Should we mention rollbacks?' }, installId],
  ]);
  await e2e.screenshot(page, 'desktop-review-final');
  await context.close();
});
