import { afterAll, beforeAll, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { durableStorage, startOn, type DurableStorage } from '../helpers/durable-server';
import type { RunningServer } from '../../sync-server/server';
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

// No test server: this file starts its own on durable storage, and stops and restarts it.
const e2e = useChromium({ servers: 0, staticApp: true });
let storage: DurableStorage;
let server: RunningServer | undefined;

beforeAll(async () => {
  storage = await durableStorage();
  storage.env.FOLIO_REVISION_QUIET_MS = '50';
});
afterAll(async () => {
  await server?.close();
  await storage?.cleanup();
});

it('keeps editing with the server down, survives a reload, and syncs when the server returns', async () => {
  let started = await startOn(storage);
  server = started.server;
  const port = new URL(server.url).port;
  const orgId = (await started.client.orgs.createOrganization({ title: 'Travel' })).data.id;
  const spaceId = (await started.client.orgs.createSpace(orgId, { title: 'Field notes' })).data.id;
  const restMarkdown = async () => {
    const pages = (await started.client.spaces.listPages(spaceId)).data.pages as { id: string; title: string }[];
    const page = pages.find((p) => p.title === 'On the train');
    return page
      ? (((await started.client.spaces.getPageById(spaceId, page.id)).data as { markdown?: string }).markdown ?? '')
      : '';
  };

  const page = await e2e.newPage();
  await openSpaceThroughUi(page, server.url, TEST_ADMIN_TOKEN, spaceId, e2e.staticUrl);
  await createPageThroughUi(page, 'On the train');
  await typeInEditor(page, 'Written online. ');
  await eventually(async () => (await restMarkdown()).includes('Written online.'), 'the online edit over REST');

  // The server goes away; the writer keeps going.
  await server.close();
  server = undefined;
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
  started = await startOn({ ...storage, env: { ...storage.env, FOLIO_PORT: port } });
  server = started.server;
  await eventually(async () => (await syncState(page)) === 'online', 'reconnection', 20_000);
  await eventually(
    async () => (await restMarkdown()).includes('Written online. Written offline, in a tunnel.'),
    'the offline edits over REST',
    20_000,
  );
  await e2e.screenshot(page, 'desktop-offline-synced');
  await page.close();
});
