import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';

/**
 * The two parts of updateChangeRequestContent that Folio refuses, and why:
 * a page `condition` (adaptive content applies to site sections and site
 * spaces, not pages) and revert_page's `block` form (Folio documents carry no
 * block keys). Each refusal is a 400 naming the field and the reason, and, the
 * batch being atomic, leaves no trace of the changes before it.
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
  it('accepts "" (no condition), the only value a Folio page can hold', async () => {
    const crId = await newCr();
    await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        spaceId,
        crId,
        { changes: [{ operation: 'update_page', page: pageId, title: 'Intro (edited)', condition: '' }] },
        { compat: false },
      ),
    );
    expect(await read(crId, (c) => c.getPage(pageId)!.title)).toBe('Intro (edited)');
  });

  it('refuses a real condition with a 400 that names the field and the reason, and applies nothing', async () => {
    const crId = await newCr();
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, title: 'Should not stick' },
      { operation: 'update_page', page: pageId, condition: 'visitor.claims.plan == "pro"' },
    ]);
    expectError(res, 400, /^body\.changes\[1\]\.condition: .*not supported.*site sections and site spaces/);
    expect(await read(crId, (c) => c.getPage(pageId)!.title)).toBe('Intro');
    // insert_page carries the same field (RevisionPageUpdate) and the same rule.
    const inserted = await post(crId, [
      { operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.beta', document: { markdown: 'B.\n' } },
    ]);
    expectError(inserted, 400, /^body\.changes\[0\]\.condition: /);
    expect(await read(crId, (c) => c.listPageIds())).toEqual([pageId]);
  });

  it('is refused through the official client too (GitBook error shape)', async () => {
    const crId = await newCr();
    const change = { operation: 'update_page', page: pageId, condition: 'visitor.claims.beta' };
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
  it('the documents Folio returns carry no block keys, so no block can be named', async () => {
    // The refusal below rests on this fact: when documents gain node keys, implement the block form.
    const res = await raw(t, 'GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`, {
      token: t.adminToken,
    });
    expect(res.status).toBe(200);
    const document = (res.body as { document?: { nodes: unknown[] } }).document;
    expect(document?.nodes.length).toBeGreaterThan(0);
    expect(JSON.stringify(document)).not.toMatch(/"key":/);
  });

  it('refuses the block form with a 400 that says why, and applies nothing before it', async () => {
    const crId = await newCr();
    const res = await post(crId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'One.\n\nTwo, edited.\n\nThree.\n' } },
      { operation: 'revert_page', page: pageId, block: ['b1'] },
    ]);
    expectError(res, 400, /^body\.changes\[1\]\.block: .*no block keys.*omit `block` to revert the whole page/);
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
