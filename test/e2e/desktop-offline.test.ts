import { expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import {
  createPageThroughUi,
  editorText,
  localCopiesSettled,
  openSpaceThroughUi,
  syncState,
  typeInEditor,
} from '../helpers/web-app';

/**
 * Offline editing: the renderer is served by a separate static server (as
 * Electron loads it from disk), so the window can reload while the sync
 * server is down. Edits made offline survive the reload (IndexedDB) and
 * reach the server when it comes back on the same port and data.
 */

// The compiled server keeps its data folder across a stop and a start on the same address.
const e2e = useChromium({ staticApp: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

it('keeps editing with the server down, survives a reload, and syncs when the server returns', async () => {
  const server = e2e.server;
  const orgId = (await server.client.orgs.createOrganization({ title: 'Travel' })).data.id;
  const spaceId = (await server.client.orgs.createSpace(orgId, { title: 'Field notes' })).data.id;
  const restMarkdown = async () => {
    const pages = (await server.client.spaces.listPages(spaceId)).data.pages as { id: string; title: string }[];
    const page = pages.find((p) => p.title === 'On the train');
    return page
      ? (((await server.client.spaces.getPageById(spaceId, page.id)).data as { markdown?: string }).markdown ?? '')
      : '';
  };

  const page = await e2e.newPage();
  await openSpaceThroughUi(page, server.url, server.adminToken, spaceId, e2e.staticUrl);
  await createPageThroughUi(page, 'On the train');
  await typeInEditor(page, 'Written online. ');
  await eventually(async () => (await restMarkdown()).includes('Written online.'), 'the online edit over REST');

  // The server goes away (SIGTERM, as a service manager stops it); the writer keeps going.
  await server.stop();
  await eventually(async () => (await syncState(page)) === 'offline', 'the offline indicator');
  await typeInEditor(page, 'Written offline, in a tunnel.');
  await expect.poll(() => editorText(page)).toContain('Written offline, in a tunnel.');
  await localCopiesSettled(page);

  // Reload the window with the server still down: the page comes back from IndexedDB.
  await page.reload();
  await expect.poll(() => editorText(page), { timeout: 15_000 }).toBe('Written online. Written offline, in a tunnel.');
  expect(await syncState(page)).toBe('offline');
  await e2e.screenshot(page, 'desktop-offline-reloaded');

  // The server returns on the same port and data: the offline edits reach it.
  await server.start();
  await eventually(async () => (await syncState(page)) === 'online', 'reconnection', 20_000);
  await eventually(
    async () => (await restMarkdown()).includes('Written online. Written offline, in a tunnel.'),
    'the offline edits over REST',
    20_000,
  );
  await e2e.screenshot(page, 'desktop-offline-synced');
  await page.close();
});
