import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { raw } from '../helpers/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * Anyone who may edit can type a NUL or a lone surrogate over the socket.
 * PostgreSQL stores neither (text and jsonb refuse them): such a character
 * used to make every later revision of the space fail, so REST and search
 * froze at the last good revision. Revisions now store U+FFFD in their place,
 * and the space keeps getting revisions.
 */

let t: TestServer;
let client: Client;
let spaceId: string;

beforeAll(async () => {
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: '50' });
  const orgId = (await t.client.orgs.createOrganization({ title: 'Odd Text Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Odd text' })).data.id;
  client = connect(t.url, spaceId, t.adminToken);
  await synced(client);
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
});

const markdownOf = async (pageId: string) =>
  ((await t.client.spaces.getPageById(spaceId, pageId)).data as { markdown?: string }).markdown ?? '';

it('stores NUL and lone surrogates typed into a page as U+FFFD, and later edits still become revisions', async () => {
  const content = new ContentDoc(client.doc);
  const pageId = content.createPage({
    title: 'Nul\u0000 and \ud800 title',
    markdown: 'before\u0000after \udc00 lone, and a kept pair \ud83d\ude00\n',
  });
  await waitFor(async () => (await markdownOf(pageId).catch(() => '')).includes('before'), 15_000, 'first revision');
  const page = (await t.client.spaces.getPageById(spaceId, pageId)).data as { title: string; markdown?: string };
  expect(page.title).toBe('Nul\ufffd and \ufffd title');
  expect(page.markdown).toContain('before\ufffdafter \ufffd lone, and a kept pair \ud83d\ude00');

  content.setMarkdown(pageId, 'second version\u0000\n');
  await waitFor(async () => (await markdownOf(pageId)).includes('second version'), 15_000, 'a later revision');
  const search = await raw(t, 'GET', `/v1/spaces/${spaceId}/search?query=second`, { token: t.adminToken });
  expect((search.body as { items: unknown[] }).items.length).toBeGreaterThan(0);
});
