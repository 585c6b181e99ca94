import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { startTestServer, type TestServer } from '../helpers/server';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * When live edits become revisions: after the document has been quiet for
 * FOLIO_REVISION_QUIET_MS, and during a stream of edits that never pauses
 * that long, at the latest every ten quiet periods (the scheduler moves its
 * deadline on each committed update instead of starting a timer per update).
 */

const QUIET_MS = 100;
let t: TestServer;
const clients = new SyncClients();
let orgId: string;

beforeAll(async () => {
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: String(QUIET_MS) });
  orgId = (await t.client.orgs.createOrganization({ title: 'Revisions Org' })).data.id;
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

const revisionCount = async (spaceId: string) =>
  Number(
    (
      await t.server.ctx.db.query<{ n: number | string }>('SELECT count(*) AS n FROM revisions WHERE space_id = $1', [
        spaceId,
      ])
    )[0]!.n,
  );

const currentMarkdown = async (spaceId: string) => {
  const revision = (await t.client.spaces.getCurrentRevision(spaceId)).data;
  const pageId = revision.pages[0]?.id;
  if (!pageId) return undefined;
  const page = (await t.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data;
  return (page as { markdown?: string }).markdown;
};

describe('live revisions', () => {
  it('cuts revisions during a stream of edits that never goes quiet, and one with the last edit once it does', async () => {
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Stream' })).data.id;
    const writer = clients.connect(t.url, spaceId);
    await synced(writer);
    const content = new ContentDoc(writer.doc);
    const pageId = content.createPage({ title: 'Log', markdown: 'start\n' });
    await waitFor(async () => (await currentMarkdown(spaceId))?.includes('start'), 10_000, 'the first revision');
    const before = await revisionCount(spaceId);

    // An edit every 10 ms: never a quiet period, so only the longest wait can cut a revision meanwhile.
    const body = content.pageBody(pageId);
    let edits = 0;
    const typing = setInterval(() => body.insert(body.length, `line ${++edits}\n`), 10);
    try {
      await waitFor(async () => (await revisionCount(spaceId)) > before, 20_000, 'a revision during the stream');
    } finally {
      clearInterval(typing);
    }
    const last = `line ${edits}\n`;
    const markdown = await waitFor(
      async () => {
        const now = await currentMarkdown(spaceId);
        return now?.endsWith(last) ? now : undefined;
      },
      10_000,
      'the last edit in a revision',
    );
    expect(markdown).toContain('start\nline 1\nline 2\n');
  });

  it('credits a revision the quiet period cuts to the person who typed', async () => {
    const me = (await t.client.user.getAuthenticatedUser()).data;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Credited' })).data.id;
    const writer = clients.connect(t.url, spaceId);
    await synced(writer);
    const before = await revisionCount(spaceId);
    new ContentDoc(writer.doc).createPage({ title: 'Typed', markdown: 'By hand\n' });
    await waitFor(async () => (await revisionCount(spaceId)) > before, 10_000, 'the revision of the typing');
    const [latest] = await t.server.ctx.db.query<{ created_by: string | null }>(
      'SELECT created_by FROM revisions WHERE space_id = $1 ORDER BY created_at DESC LIMIT 1',
      [spaceId],
    );
    expect(latest!.created_by).toBe(me.id);
  });
});
