import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentChange, ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import type { JSONDocument } from '../../shared/markdown/document-types';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, ok, raw } from '../helpers/api';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * revert_page's `block` form. The documents Folio returns (`format=document`)
 * key every top-level block by its content, so a key read from the change
 * request's page or from the source revision's names that block; reverting
 * it puts back only that block (modified: its old text; added: removed;
 * deleted: re-inserted where it was), as a word-level CRDT edit inside the
 * atomic batch, so live writers keep their typing.
 */
let t: TestServer;
let spaceId: string;
let pageId: string;
const clients = new SyncClients();
const BASE = 'Alpha.\n\nBeta.\n\nGamma.\n\nDelta.\n';

const markdownOf = (crId: string) =>
  t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => new ContentDoc(doc).getMarkdown(pageId));
async function newCr(): Promise<string> {
  return (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
}
const send = (crId: string, changes: ChangeRequestContentChange[]) =>
  ok(
    'updateChangeRequestContent',
    t.client.spaces.updateChangeRequestContent(spaceId, crId, { changes }, { compat: false }),
  ) as Promise<ChangeRequestContentUpdate>;
const post = (crId: string, changes: unknown[]) =>
  raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
    token: t.adminToken,
    body: { changes },
  });
const edit = (crId: string, markdown: string) =>
  send(crId, [{ operation: 'update_page', page: pageId, document: { markdown } }]);

/** The page's document in the change request (validated against GitBook's schema by `ok`). */
async function crDocument(crId: string): Promise<JSONDocument> {
  const page = await ok(
    'getPageInChangeRequestById',
    t.client.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'document' }),
  );
  return (page as unknown as { document: JSONDocument }).document;
}
async function spaceDocument(): Promise<JSONDocument> {
  const page = await ok('getPageById', t.client.spaces.getPageById(spaceId, pageId, { format: 'document' }));
  return (page as unknown as { document: JSONDocument }).document;
}
/** The key of the top-level block whose text is `text`. */
function keyOf(doc: JSONDocument, text: string): string {
  const node = doc.nodes.find((n) => JSON.stringify(n.nodes ?? []).includes(`"text":"${text}"`));
  if (!node?.key) throw new Error(`no keyed block "${text}" in ${JSON.stringify(doc.nodes.map((n) => n.key))}`);
  return node.key;
}

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Blocks Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    pageId = new ContentDoc(doc).createPage({ title: 'Guide', markdown: BASE });
  });
  await t.server.ctx.snapshots.revise(spaceId);
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  await t?.close();
});

describe('block keys in the documents Folio returns', () => {
  it('every top-level block has a key, unique in the page', async () => {
    const doc = await spaceDocument();
    const keys = doc.nodes.map((n) => n.key);
    expect(keys).toHaveLength(4);
    for (const key of keys) expect(key).toMatch(/^b[A-Za-z0-9_-]{12}$/);
    expect(new Set(keys).size).toBe(4);
  });

  it('unchanged blocks keep their keys across an edit of another block; the edited one gets a new key', async () => {
    const before = await spaceDocument();
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nBeta, edited.\n\nGamma.\n\nDelta.\n');
    const after = await crDocument(crId);
    for (const text of ['Alpha.', 'Gamma.', 'Delta.']) expect(keyOf(after, text)).toBe(keyOf(before, text));
    expect(after.nodes.map((n) => n.key)).not.toContain(keyOf(before, 'Beta.'));
  });

  it('identical blocks get distinct keys', async () => {
    const crId = await newCr();
    await edit(crId, 'Same.\n\nOther.\n\nSame.\n');
    const [a, , b] = (await crDocument(crId)).nodes.map((n) => n.key!);
    expect(b).toBe(`${a}-2`);
  });
});

describe('revert_page with block', () => {
  it('reverts one edited paragraph of three; the others and the page title stay as edited', async () => {
    const crId = await newCr();
    await send(crId, [
      {
        operation: 'update_page',
        page: pageId,
        title: 'Guide, renamed',
        document: { markdown: 'Alpha!\n\nBeta!\n\nGamma!\n\nDelta.\n' },
      },
    ]);
    const key = keyOf(await crDocument(crId), 'Beta!');
    const res = await send(crId, [{ operation: 'revert_page', page: pageId, block: [key] }]);
    expect(res.changes).toMatchObject([{ object: 'updated_page', page: { id: pageId } }]);
    expect(await markdownOf(crId)).toBe('Alpha!\n\nBeta.\n\nGamma!\n\nDelta.\n');
    const page = await t.client.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'markdown' });
    expect((page.data as { title: string }).title).toBe('Guide, renamed');
  });

  it('removes an added block', async () => {
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nAdded.\n\nBeta.\n\nGamma.\n\nDelta.\n');
    await send(crId, [{ operation: 'revert_page', page: pageId, block: [keyOf(await crDocument(crId), 'Added.')] }]);
    expect(await markdownOf(crId)).toBe(BASE);
  });

  it("re-inserts a deleted block where it was, named by the source revision's key", async () => {
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nBeta.\n\nDelta, edited.\n');
    const gamma = keyOf(await spaceDocument(), 'Gamma.');
    await send(crId, [{ operation: 'revert_page', page: pageId, block: [gamma] }]);
    expect(await markdownOf(crId)).toBe('Alpha.\n\nBeta.\n\nGamma.\n\nDelta, edited.\n');
  });

  it('reverts to a given revision', async () => {
    const crId = await newCr();
    const first = await edit(crId, 'Alpha.\n\nBeta 1.\n\nGamma.\n\nDelta.\n');
    await edit(crId, 'Alpha 2.\n\nBeta 2.\n\nGamma.\n\nDelta.\n');
    const key = keyOf(await crDocument(crId), 'Beta 2.');
    await send(crId, [
      { operation: 'revert_page', page: pageId, revision: first.changeRequest.revision, block: [key] },
    ]);
    expect(await markdownOf(crId)).toBe('Alpha 2.\n\nBeta 1.\n\nGamma.\n\nDelta.\n');
  });

  it('combines with an earlier change of the batch to another block of the page', async () => {
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nBeta!\n\nGamma.\n\nDelta.\n');
    const key = keyOf(await crDocument(crId), 'Beta!');
    await send(crId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'Alpha.\n\nBeta!\n\nGamma.\n\nDelta!\n' } },
      { operation: 'revert_page', page: pageId, block: [key] },
    ]);
    expect(await markdownOf(crId)).toBe('Alpha.\n\nBeta.\n\nGamma.\n\nDelta!\n');
  });

  it('an unknown key is a 400 naming it, and nothing of the batch is applied', async () => {
    const crId = await newCr();
    const before = (await t.client.spaces.getChangeRequestById(spaceId, crId)).data.revision;
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, title: 'Renamed', document: { markdown: 'Replaced.\n' } },
      { operation: 'revert_page', page: pageId, block: [keyOf(await spaceDocument(), 'Beta.'), 'bNoSuchBlock1'] },
    ]);
    expectError(
      res,
      400,
      new RegExp(
        `^body\\.changes\\[1\\]\\.block\\[1\\]: no block with key "bNoSuchBlock1" in page "${pageId}" \\(current or source\\)$`,
      ),
    );
    expect(await markdownOf(crId)).toBe(BASE);
    expect((await t.client.spaces.getChangeRequestById(spaceId, crId)).data.revision).toBe(before);
  });

  it('a block an earlier change of the batch rewrote is a 409, and nothing is applied', async () => {
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nBeta!\n\nGamma.\n\nDelta.\n');
    const key = keyOf(await crDocument(crId), 'Beta!');
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'Alpha.\n\nBeta?\n\nGamma.\n\nDelta.\n' } },
      { operation: 'revert_page', page: pageId, block: [key] },
    ]);
    expectError(res, 409, new RegExp(`^body\\.changes\\[1\\]: page "${pageId}" changed where block "${key}" is`));
    expect(await markdownOf(crId)).toBe('Alpha.\n\nBeta!\n\nGamma.\n\nDelta.\n');
  });

  it('a page deleted in the change request is a 404; a page too complex to split a 400', async () => {
    const crId = await newCr();
    const key = keyOf(await spaceDocument(), 'Beta.');
    await send(crId, [{ operation: 'delete_page', page: pageId }]);
    expectError(await post(crId, [{ operation: 'revert_page', page: pageId, block: [key] }]), 404, /does not exist/);

    const other = await newCr();
    await edit(other, `${'>'.repeat(500)} deep\n\nBeta.\n`);
    expectError(
      await post(other, [{ operation: 'revert_page', page: pageId, block: [key] }]),
      400,
      /^body\.changes\[0\]\.block: page .* cannot be split into blocks .*omit `block` to revert the whole page$/,
    );
  });

  it("keeps a writer's concurrent keystrokes in another paragraph of the page", async () => {
    const crId = await newCr();
    await edit(crId, 'Alpha.\n\nBeta!\n\nGamma.\n\nDelta.\n');
    const key = keyOf(await crDocument(crId), 'Beta!');
    const client = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    // The writer types while their edits are not yet on the server…
    client.provider.disconnect();
    live.pageBody(pageId).insert('Alpha'.length, ' typed');
    // …and meanwhile the REST batch reverts another paragraph.
    await send(crId, [{ operation: 'revert_page', page: pageId, block: [key] }]);
    client.provider.connect();
    const expected = 'Alpha typed.\n\nBeta.\n\nGamma.\n\nDelta.\n';
    await waitFor(() => live.getMarkdown(pageId) === expected, 10_000, 'the client to converge');
    await waitFor(async () => (await markdownOf(crId)) === expected, 10_000, 'the server to converge');
  });
});
