import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { CloseCode, crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { upgradeStatus } from '../helpers/raw-sockets';
import { SyncClients, synced, syncUrl } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';
import { newMember } from '../helpers/members';
import type { TestUser } from '../helpers/api';

/**
 * Change request forks over the sync protocol: `/v1/sync/spaces/:spaceId/change-requests/:id`,
 * writes need `edit` and an unmerged change request, and a merge racing a
 * live editor loses none of the edits the server accepted.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
let pageId: string;
let editor: TestUser;
let commenter: TestUser;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: '50' });
  orgId = (await t.client.orgs.createOrganization({ title: 'CR Sync Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    pageId = new ContentDoc(doc).createPage({ title: 'Page', markdown: 'start\n' });
  });
  editor = await newMember(t, orgId, 'edit', 'Sync editor');
  commenter = await newMember(t, orgId, 'comment', 'Sync commenter');
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

describe('change request sync', () => {
  it('serves the fork; comment members are read-only, unknown change requests are 404', async () => {
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Sync' })).data;
    const reader = clients.connect(t.url, { spaceId, changeRequestId: cr.id, kind: 'content' }, commenter.token);
    await synced(reader);
    expect(new ContentDoc(reader.doc).getMarkdown(pageId)).toBe('start\n');
    new ContentDoc(reader.doc).pageBody(pageId).insert(0, 'not allowed ');
    await waitFor(() => reader.closes.some((c) => c.code === CloseCode.readOnly), 10_000, 'read-only close');
    const text = await t.server.ctx.hub.withDoc(crContentDoc(cr.id), (doc) => new ContentDoc(doc).getMarkdown(pageId));
    expect(text).toBe('start\n');
    expect(
      (await upgradeStatus(syncUrl(t.url, { spaceId, changeRequestId: 'nosuchcr', kind: 'content' }, t.adminToken)))
        .status,
    ).toBe(404);
    expect(
      (await upgradeStatus(syncUrl(t.url, { spaceId, changeRequestId: cr.id, kind: 'discussion' }, commenter.token)))
        .status,
    ).toBe(101);
  });

  it('an editor typing while another user merges loses no accepted edit', async () => {
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Race' })).data;
    const writer = clients.connect(t.url, { spaceId, changeRequestId: cr.id, kind: 'content' }, editor.token);
    await synced(writer);
    const body = new ContentDoc(writer.doc).pageBody(pageId);
    let typing = true;
    let n = 0;
    const loop = (async () => {
      while (typing && !writer.closes.length) {
        body.insert(body.length, `<${n++}>`);
        await sleep(2);
      }
    })();
    await sleep(150);
    const merged = await t.client.spaces.mergeChangeRequest(spaceId, cr.id);
    expect(merged.data.result).toBe('merge');
    await waitFor(() => writer.closes.some((c) => c.code === CloseCode.locked), 10_000, 'locked close after merge');
    typing = false;
    await loop;
    await t.server.ctx.hub.flush();
    const forkText = await t.server.ctx.hub.withDoc(crContentDoc(cr.id), (doc) =>
      new ContentDoc(doc).getMarkdown(pageId),
    );
    const spaceText = await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (doc) =>
      new ContentDoc(doc).getMarkdown(pageId),
    );
    const accepted = forkText.match(/<\d+>/g) ?? [];
    expect(accepted.length).toBeGreaterThan(5);
    // Everything the server accepted into the fork is in the space, in order.
    for (const token of accepted) expect(spaceText).toContain(token);
    expect(spaceText).toContain(accepted.join(''));
    // The fork is closed for good: a new connection is read-only.
    expect(n).toBeGreaterThanOrEqual(accepted.length);
  });
});
