import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';

/**
 * Page conditions through updateChangeRequestContent (stored, returned,
 * removed; a condition outside the adaptive-content grammar is a 400), and
 * revert_page's `block` form through the official client (the rest of it:
 * change-request-content-revert-block.test.ts). Each refusal is a 400 naming
 * the field and the reason, and, the batch being atomic, leaves no trace of
 * the changes before it.
 */
let t: TestServer;
let spaceId: string;
let pageId: string;

const read = <T>(crId: string, fn: (c: ContentDoc) => T) =>
  t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => fn(new ContentDoc(doc)));
async function newCr(): Promise<string> {
  return (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
}
const post = (crId: string, changes: unknown[]) =>
  raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
    token: t.adminToken,
    body: { changes },
  });

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'More Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    pageId = new ContentDoc(doc).createPage({ title: 'Intro', markdown: 'One.\n\nTwo.\n\nThree.\n' });
  });
  await t.server.ctx.snapshots.revise(spaceId);
});
afterAll(async () => {
  await t?.close();
});

describe('update_page.condition', () => {
  const pageOf = async (crId: string) =>
    (await ok(
      'getPageInChangeRequestById',
      t.client.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'markdown' }),
    )) as { condition?: string; title: string };

  it('stores a condition, returns it on the page (RevisionPageBase.condition) and removes it with ""', async () => {
    const crId = await newCr();
    await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        spaceId,
        crId,
        { changes: [{ operation: 'update_page', page: pageId, condition: 'visitor.claims.plan == "pro"' }] },
        { compat: false },
      ),
    );
    expect((await pageOf(crId)).condition).toBe('visitor.claims.plan == "pro"');
    await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        spaceId,
        crId,
        { changes: [{ operation: 'update_page', page: pageId, title: 'Intro (edited)', condition: '' }] },
        { compat: false },
      ),
    );
    const page = await pageOf(crId);
    expect(page.title).toBe('Intro (edited)');
    expect(page).not.toHaveProperty('condition');
  });

  it('insert_page takes one too', async () => {
    const crId = await newCr();
    const res = await post(crId, [
      { operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.beta', document: { markdown: 'B.\n' } },
    ]);
    expect(res.status).toBe(200);
    const created = (res.body as { changes: { page: { id: string } }[] }).changes[0]!.page.id;
    expect(await read(crId, (c) => c.getPage(created)!.condition)).toBe('visitor.claims.beta');
  });

  it('refuses a condition outside the grammar with a 400 that names the field and why, and applies nothing', async () => {
    const crId = await newCr();
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, title: 'Should not stick' },
      { operation: 'update_page', page: pageId, condition: 'process.exit(1)' },
    ]);
    expectError(res, 400, /^body\.changes\[1\]\.condition: .*(call|Unknown name)/);
    expect(await read(crId, (c) => c.getPage(pageId)!.title)).toBe('Intro');
    const syntax = await post(crId, [{ operation: 'update_page', page: pageId, condition: 'visitor.claims.(' }]);
    expectError(syntax, 400, /^body\.changes\[0\]\.condition: Invalid condition/);
  });

  it('is refused through the official client too (GitBook error shape)', async () => {
    const crId = await newCr();
    const change = { operation: 'update_page', page: pageId, condition: 'constructor.constructor("x")()' };
    const message = await fails(
      t.client.spaces.updateChangeRequestContent(spaceId, crId, {
        changes: [change as ChangeRequestContentChange],
      }),
      400,
    );
    expect(message).toMatch(/condition/);
  });
});

describe('revert_page with block', () => {
  it('reverts only the blocks named by the keys of the document Folio returns', async () => {
    const crId = await newCr();
    const send = (changes: ChangeRequestContentChange[]) =>
      ok('updateChangeRequestContent', t.client.spaces.updateChangeRequestContent(spaceId, crId, { changes }));
    await send([{ operation: 'update_page', page: pageId, document: { markdown: 'One!\n\nTwo!\n\nThree.\n' } }]);
    const page = await ok(
      'getPageInChangeRequestById',
      t.client.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'document' }),
    );
    const nodes = (page as unknown as { document: { nodes: { key?: string }[] } }).document.nodes;
    expect(nodes.every((n) => typeof n.key === 'string')).toBe(true);
    await send([{ operation: 'revert_page', page: pageId, block: [nodes[1]!.key!] }]);
    expect(await read(crId, (c) => c.getMarkdown(pageId))).toBe('One!\n\nTwo.\n\nThree.\n');
  });

  it('an unknown key is a 400 naming it, and applies nothing before it', async () => {
    const crId = await newCr();
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'One.\n\nTwo, edited.\n\nThree.\n' } },
      { operation: 'revert_page', page: pageId, block: ['b1'] },
    ]);
    expectError(
      res,
      400,
      /^body\.changes\[1\]\.block\[0\]: no block with key "b1" in page ".*" \(current or source\)$/,
    );
    expect(await read(crId, (c) => c.getMarkdown(pageId))).toBe('One.\n\nTwo.\n\nThree.\n');
  });

  it('still reverts the whole page without block', async () => {
    const crId = await newCr();
    const send = (changes: ChangeRequestContentChange[]) =>
      ok('updateChangeRequestContent', t.client.spaces.updateChangeRequestContent(spaceId, crId, { changes }));
    await send([{ operation: 'update_page', page: pageId, document: { markdown: 'Replaced.\n' } }]);
    expect(await read(crId, (c) => c.getMarkdown(pageId))).toBe('Replaced.\n');
    await send([{ operation: 'revert_page', page: pageId }]);
    expect(await read(crId, (c) => c.getMarkdown(pageId))).toBe('One.\n\nTwo.\n\nThree.\n');
  });
});
