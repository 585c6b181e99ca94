import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Revision pages are shared between revisions and between spaces (a duplicate
 * shares all of them). Purging a deleted space removes the pages only it used
 * and keeps those another space still needs.
 */
let t: TestServer;
let orgId: string;
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'GC Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const DAY = 24 * 60 * 60 * 1000;

async function pageExists(hashOf: string): Promise<boolean> {
  const rows = await t.server.ctx.db.query('SELECT 1 FROM revision_pages WHERE page::text LIKE $1', [`%${hashOf}%`]);
  return rows.length > 0;
}

describe('unused revision pages', () => {
  it('are deleted with the last space that used them; shared ones stay', async () => {
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Original' })).data.id;
    let sharedId = '';
    await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      sharedId = new ContentDoc(doc).createPage({
        title: 'Shared page',
        markdown: 'Text both spaces keep: shared-marker.\n',
      });
    });
    await t.server.ctx.snapshots.revise(spaceId);
    const copyId = (await t.client.spaces.duplicateSpace(spaceId)).data.id;
    // A page version only the original ever had.
    await t.server.ctx.hub.change(
      spaceContentDoc(spaceId),
      (doc) => void new ContentDoc(doc).createPage({ title: 'Only here', markdown: 'original-only-marker\n' }),
    );
    await t.server.ctx.snapshots.revise(spaceId);
    expect(await pageExists('original-only-marker')).toBe(true);
    expect(await pageExists('shared-marker')).toBe(true);

    await t.client.spaces.deleteSpaceById(spaceId);
    t.clock.advance(8 * DAY);
    const report = await t.server.jobs.runAll();
    expect(report.purgedSpaces).toBe(1);
    expect(await pageExists('original-only-marker')).toBe(false);
    expect(await pageExists('shared-marker')).toBe(true);
    const page = (await t.client.spaces.getPageById(copyId, sharedId)).data as { markdown?: string };
    expect(page.markdown).toContain('shared-marker');

    await t.client.spaces.deleteSpaceById(copyId);
    t.clock.advance(8 * DAY);
    await t.server.jobs.runAll();
    expect(await pageExists('shared-marker')).toBe(false);
  });
});
