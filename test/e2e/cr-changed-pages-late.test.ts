import { expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import { openSpaceThroughUi, pageThenChangeRequestThroughUi, syncState, typeInEditor } from '../helpers/web-app';

/**
 * A change request's "Changed pages" list, restarted (its reload button) after an edit the server
 * has not put in a revision yet: the restarted list never saw that edit happen, and the server's
 * list did not have it. Once the server cuts the revision (after a quiet period of 3 s here), the
 * panel, which re-reads the request every few seconds, learns it from the server's list — without
 * another edit or reload.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '3000' } });

it('lists a page edited before the list restarted, once the server has its revision', async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Late changes' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Manual' })).data.id;
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
  await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
  await pageThenChangeRequestThroughUi(page, {
    title: 'Install',
    text: 'Run the installer.',
    subject: 'Explain upgrades',
  });
  await typeInEditor(page, ' To upgrade, run it again.');
  await eventually(async () => (await syncState(page)) === 'online', 'the edit sent');
  // Restarted while the edit waits for its revision: the list starts without it.
  await page.getByTestId('cr-changes-refresh').click();
  await expect.poll(() => page.getByTestId('cr-changes').textContent(), { timeout: 30_000 }).toContain('Install');
  await e2e.screenshot(page, 'cr-changed-pages-late');
});
