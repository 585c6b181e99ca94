import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok } from '../helpers/api';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * REST content changes and live editing of the same change request: a
 * y-websocket client sees a batch as it is committed, and a writer typing in
 * one paragraph of a page while a batch rewrites another keeps both.
 */
let t: TestServer;
let spaceId: string;
let pageId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Live Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    pageId = new ContentDoc(doc).createPage({ title: 'Intro', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
  });
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  await t?.close();
});

async function newCr(): Promise<string> {
  return (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
}

describe('updateChangeRequestContent with live collaborators', () => {
  it('a connected y-websocket client sees the batch', async () => {
    const crId = await newCr();
    const client = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    expect(live.getMarkdown(pageId)).toBe('First paragraph.\n\nSecond paragraph.\n');
    const res = (await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        spaceId,
        crId,
        {
          changes: [
            { operation: 'insert_page', title: 'New', document: { markdown: 'Fresh.\n' } },
            { operation: 'update_page', page: pageId, document: { markdown: 'First paragraph.\n\nRewritten.\n' } },
          ],
        },
        { compat: false },
      ),
    )) as ChangeRequestContentUpdate;
    const created = (res.changes[0] as { page: { id: string } }).page.id;
    await waitFor(() => live.hasPage(created) && live.getMarkdown(pageId).includes('Rewritten'), 10_000, 'the batch');
    expect(live.getMarkdown(created)).toBe('Fresh.\n');
    expect(live.getMarkdown(pageId)).toBe('First paragraph.\n\nRewritten.\n');
  });

  it("keeps a writer's concurrent keystrokes in another paragraph of the same page", async () => {
    const crId = await newCr();
    const client = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    // The writer types while their edits are not yet on the server…
    client.provider.disconnect();
    const body = live.pageBody(pageId);
    body.insert('First '.length, 'long ');
    // …and meanwhile a REST batch rewrites the second paragraph.
    await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(spaceId, crId, {
        changes: [
          {
            operation: 'update_page',
            page: pageId,
            document: { markdown: 'First paragraph.\n\nSecond paragraph, by REST.\n' },
          },
        ],
      }),
    );
    client.provider.connect();
    const expected = 'First long paragraph.\n\nSecond paragraph, by REST.\n';
    await waitFor(() => live.getMarkdown(pageId) === expected, 10_000, 'the client to converge');
    const server = () => t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => new ContentDoc(doc).getMarkdown(pageId));
    await waitFor(async () => (await server()) === expected, 10_000, 'the server to converge');
  });
});
