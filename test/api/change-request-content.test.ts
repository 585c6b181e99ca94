import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentChange, ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { waitFor } from '../helpers/wait';

/**
 * updateChangeRequestContent through the official client: every change kind,
 * front matter and leading heading, link resolution, compat=false outcomes,
 * one revision per batch, atomicity (a bad 10th change leaves no trace),
 * errors in GitBook's shape naming the field, and who may call it.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
let introId: string;
let guideId: string;

async function edit(docName: string, fn: (c: ContentDoc) => void) {
  await t.server.ctx.hub.change(docName, (doc) => fn(new ContentDoc(doc)));
}
const read = <T>(crId: string, fn: (c: ContentDoc) => T) =>
  t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => fn(new ContentDoc(doc)));

async function newCr(): Promise<string> {
  return (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
}
function send(crId: string, changes: ChangeRequestContentChange[], compat = false) {
  return t.client.spaces.updateChangeRequestContent(spaceId, crId, { changes }, { compat });
}
async function apply(crId: string, changes: ChangeRequestContentChange[]): Promise<ChangeRequestContentUpdate> {
  return (await ok('updateChangeRequestContent', send(crId, changes))) as ChangeRequestContentUpdate;
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Content Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await edit(spaceContentDoc(spaceId), (c) => {
    introId = c.createPage({ title: 'Introduction', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
    guideId = c.createPage({ title: 'Guides', slug: 'guides', markdown: 'Guides.\n' });
    c.createPage({ title: 'Getting started', parent: guideId, slug: 'getting-started', markdown: 'Start.\n' });
  });
});
afterAll(async () => {
  await t?.close();
});

describe('updateChangeRequestContent', () => {
  it('inserts pages from markdown: front matter and leading heading give the metadata', async () => {
    const crId = await newCr();
    const before = (await t.client.spaces.getChangeRequestById(spaceId, crId)).data.revision;
    const res = await apply(crId, [
      {
        operation: 'insert_page',
        ref: 'setup',
        document: { markdown: '---\ndescription: How to set up\n---\n# Setup\n\nInstall it.\n' },
      },
      { operation: 'insert_page', title: 'Child', into: guideId, at: 0, document: { markdown: 'Child body.\n' } },
    ]);
    expect(res.changeRequest.revision).not.toBe(before);
    expect(res.changes.map((c) => c.object)).toEqual(['created_page', 'created_page']);
    const created = res.changes[0] as { ref?: string; page: { id: string; urls: { location: string } } };
    expect(created.ref).toBe('setup');
    const page = await read(crId, (c) => ({
      ...c.getPage(created.page.id)!,
      markdown: c.getMarkdown(created.page.id),
    }));
    expect(page).toMatchObject({
      title: 'Setup',
      description: 'How to set up',
      markdown: 'Install it.\n',
      parent: null,
    });
    const child = (res.changes[1] as { page: { id: string } }).page.id;
    const order = await read(crId, (c) =>
      c
        .listPageIds()
        .map((id) => c.getPage(id)!)
        .filter((p) => p.parent === guideId)
        .sort((a, b) => (a.index < b.index ? -1 : 1))
        .map((p) => p.id),
    );
    expect(order[0]).toBe(child);
    // The page's urls.location serves the new page's content under the change request.
    const located = await raw(t, 'GET', created.page.urls.location.replace(t.url, ''), { token: t.adminToken });
    expect(located.status).toBe(200);
    expect((located.body as { title: string }).title).toBe('Setup');
  });

  it('updates text minimally, renames, moves, and deletes', async () => {
    const crId = await newCr();
    const res = await apply(crId, [
      {
        operation: 'update_page',
        page: introId,
        title: 'Intro',
        slug: 'intro',
        document: { markdown: 'First paragraph.\n\nSecond paragraph, edited.\n' },
      },
      { operation: 'update_page', page: guideId, into: introId },
    ]);
    expect(res.changes).toEqual([
      expect.objectContaining({ object: 'updated_page' }),
      expect.objectContaining({ object: 'updated_page' }),
    ]);
    const state = await read(crId, (c) => ({
      intro: c.getPage(introId)!,
      text: c.getMarkdown(introId),
      guide: c.getPage(guideId)!,
    }));
    expect(state.intro).toMatchObject({ title: 'Intro', slug: 'intro' });
    expect(state.text).toBe('First paragraph.\n\nSecond paragraph, edited.\n');
    expect(state.guide.parent).toBe(introId);
    const del = await apply(crId, [{ operation: 'delete_page', page: guideId }]);
    expect(del.changes.map((c) => c.object)).toEqual(['deleted_page', 'deleted_page']);
    expect(await read(crId, (c) => c.hasPage(guideId))).toBe(false);
    // The space itself is untouched until merge.
    const spaceText = await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (d) =>
      new ContentDoc(d).getMarkdown(introId),
    );
    expect(spaceText).toBe('First paragraph.\n\nSecond paragraph.\n');
  });

  it('resolves links by id, slug path, Git path, relative path and ref; unresolved links become text', async () => {
    const crId = await newCr();
    const res = await apply(crId, [
      {
        operation: 'insert_page',
        title: 'Links',
        document: {
          markdown: [
            `[id](/pages/${introId})`,
            '[slug](/pages/guides/getting-started)',
            '[git](/pages/guides/README.md)',
            '[rel](./guides/getting-started.md)',
            '[ref](./other.md)',
            '[web](https://example.com/x)',
            '[gone](/pages/nowhere)',
            'Code keeps `[gone](/pages/nowhere)` as written:',
            '```md',
            '[gone](/pages/nowhere)',
            '```',
            '',
          ].join('\n'),
        },
      },
      { operation: 'insert_page', ref: 'other', title: 'Other', document: { markdown: 'Other.\n' } },
    ]);
    const other = (res.changes[1] as { page: { id: string } }).page.id;
    const links = (res.changes[0] as { page: { id: string } }).page.id;
    const text = await read(crId, (c) => c.getMarkdown(links));
    const gettingStarted = await read(crId, (c) =>
      c.listPageIds().find((id) => c.getPage(id)!.slug === 'getting-started')!,
    );
    expect(text.split('\n')).toEqual([
      `[id](/pages/${introId})`,
      `[slug](/pages/${gettingStarted})`,
      `[git](/pages/${guideId})`,
      `[rel](/pages/${gettingStarted})`,
      `[ref](/pages/${other})`,
      '[web](https://example.com/x)',
      'gone',
      'Code keeps `[gone](/pages/nowhere)` as written:',
      '```md',
      '[gone](/pages/nowhere)',
      '```',
      '',
    ]);
  });

  it('inserts base64 files that pages of the batch reference by ref', async () => {
    const crId = await newCr();
    const res = await apply(crId, [
      { operation: 'insert_page', title: 'Pic', document: { markdown: '![Diagram](./diagram.png)\n' } },
      {
        operation: 'insert_files',
        files: [
          {
            ref: 'diagram.png',
            name: 'diagram.png',
            contentType: 'image/png',
            base64: Buffer.from('png!').toString('base64'),
          },
        ],
      },
    ]);
    expect(res.insertedFiles).toHaveLength(1);
    const file = res.insertedFiles![0]!;
    expect(file).toMatchObject({ name: 'diagram.png', contentType: 'image/png', size: 4 });
    const pic = (res.changes[0] as { page: { id: string } }).page.id;
    expect(await read(crId, (c) => c.getMarkdown(pic))).toBe(`![Diagram](/files/${file.id})\n`);
    const bytes = await fetch(file.downloadURL);
    expect(await bytes.text()).toBe('png!');
  });

  it('accepts GitBook JSON documents', async () => {
    const crId = await newCr();
    const res = await apply(crId, [
      {
        operation: 'insert_page',
        title: 'From JSON',
        document: {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello from JSON', marks: [] }] }],
            },
          ],
        } as never,
      },
    ]);
    const id = (res.changes[0] as { page: { id: string } }).page.id;
    expect(await read(crId, (c) => c.getMarkdown(id))).toBe('Hello from JSON\n');
  });

  it('takes inline files up to 1 MB each', async () => {
    const crId = await newCr();
    const file = (bytes: number) => ({
      operation: 'insert_files' as const,
      files: [
        {
          name: 'blob.bin',
          contentType: 'application/octet-stream',
          base64: Buffer.alloc(bytes, 7).toString('base64'),
        },
      ],
    });
    const res = await apply(crId, [file(1024 * 1024)]);
    expect(res.insertedFiles?.[0]?.size).toBe(1024 * 1024);
    const message = await fails(send(crId, [file(1024 * 1024 + 1)]), 400);
    expect(message).toMatch(/changes\[0\]\.files\[0\]\.base64/);
  });

  it('reverts a page to the change request base', async () => {
    const crId = await newCr();
    await apply(crId, [
      { operation: 'update_page', page: introId, title: 'Changed', document: { markdown: 'Changed.\n' } },
    ]);
    await apply(crId, [{ operation: 'revert_page', page: introId }]);
    const state = await read(crId, (c) => ({ title: c.getPage(introId)!.title, text: c.getMarkdown(introId) }));
    expect(state).toEqual({ title: 'Introduction', text: 'First paragraph.\n\nSecond paragraph.\n' });
  });

  it('returns the change request with compat=true (the default)', async () => {
    const crId = await newCr();
    const cr = await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(spaceId, crId, {
        changes: [{ operation: 'insert_page', title: 'Plain', document: { markdown: 'x\n' } }],
      }),
    );
    expect(cr).toMatchObject({ object: 'change-request', id: crId });
  });

  it('is atomic: a batch whose 10th change is invalid leaves no trace and no revision', async () => {
    const crId = await newCr();
    const before = (await t.client.spaces.getChangeRequestById(spaceId, crId)).data.revision;
    const snapshot = await read(crId, (c) =>
      JSON.stringify(
        c
          .listPageIds()
          .sort()
          .map((id) => [c.getPage(id), c.getMarkdown(id)]),
      ),
    );
    const changes: ChangeRequestContentChange[] = [];
    for (let i = 0; i < 9; i++)
      changes.push({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Body ${i}\n` } });
    changes.push({ operation: 'update_page', page: 'no-such-page', title: 'x' });
    const message = await fails(send(crId, changes), 404);
    expect(message).toMatch(/changes\[9\]/);
    const after = await read(crId, (c) =>
      JSON.stringify(
        c
          .listPageIds()
          .sort()
          .map((id) => [c.getPage(id), c.getMarkdown(id)]),
      ),
    );
    expect(after).toBe(snapshot);
    expect((await t.client.spaces.getChangeRequestById(spaceId, crId)).data.revision).toBe(before);
  });

  it('answers bad input with a 4xx naming the field', async () => {
    const crId = await newCr();
    const path = `/v1/spaces/${spaceId}/change-requests/${crId}/content`;
    const post = (body: unknown) => raw(t, 'POST', path, { token: t.adminToken, body });
    expectError(await post({ changes: [] }), 400);
    expectError(await post({ changes: [{ operation: 'explode' }] }), 400);
    expectError(
      await post({ changes: [{ operation: 'insert_page', title: '', document: { markdown: '' } }] }),
      400,
      /body\.changes\[0\]\.title/,
    );
    expectError(await post({ changes: [{ operation: 'insert_page', title: 'x' }] }), 400, /body\.changes\[0\]/);
    expectError(
      await post({ changes: [{ operation: 'update_page', page: introId, at: -1 }] }),
      400,
      /changes\[0\]\.at/,
    );
    expectError(
      await post({ changes: [{ operation: 'update_page', page: guideId, into: guideId }] }),
      400,
      /changes\[0\]: .*under itself/,
    );
    expectError(
      await post({ changes: [{ operation: 'insert_files', files: [{ name: 'a.bin', base64: 'AAAA' }] }] }),
      400,
      /contentType/,
    );
    expectError(
      await post({ changes: [{ operation: 'insert_files', files: [{ name: 'a.bin', url: 'http://127.0.0.1:1/x' }] }] }),
      400,
      /files\[0\]\.url: .*loopback/,
    );
    expectError(
      await post({ changes: [{ operation: 'update_page', page: introId, slug: 'guides' }] }),
      409,
      /already used/,
    );
    expectError(
      await post({
        changes: [
          { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: '' } },
          { operation: 'insert_page', ref: 'a', title: 'B', document: { markdown: '' } },
        ],
      }),
      400,
      /twice/,
    );
    expectError(await post({ changes: [{ operation: 'revert_page', page: introId, revision: 'nope' }] }), 404);
    for (const nodes of [[null], [{ object: 'block', type: 'paragraph', nodes: 5 }]])
      expectError(
        await post({ changes: [{ operation: 'insert_page', title: 'J', document: { object: 'document', nodes } }] }),
        400,
        /changes\[0\]: document is not a valid GitBook JSON document/,
      );
    expectError(
      await post({ changes: [{ operation: 'insert_page', ref: 'guides', title: 'G', document: { markdown: '' } }] }),
      400,
      /collides/,
    );
  });

  it('names the field and the rule in schema errors (every route)', async () => {
    const crId = await newCr();
    const post = (path: string, body: unknown) => raw(t, 'POST', path, { token: t.adminToken, body });
    const content = `/v1/spaces/${spaceId}/change-requests/${crId}/content`;
    expectError(await post(content, { changes: [] }), 400, /^body\.changes: must NOT have fewer than 1 items$/);
    expectError(await post(content, {}), 400, /^body\.changes: is required$/);
    expectError(
      await post(content, { changes: [{ operation: 'delete_page' }] }),
      400,
      /^body\.changes\[0\]\.page: is required$/,
    );
    expectError(
      await post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'x'.repeat(101) }),
      400,
      /^body\.subject: must NOT have more than 100 characters$/,
    );
  });

  it('merged pages are found by search, with their ancestors', async () => {
    const crId = await newCr();
    await apply(crId, [
      {
        operation: 'insert_page',
        ref: 'deep',
        into: guideId,
        title: 'Zebra crossing',
        document: { markdown: 'Quokkas everywhere.\n' },
      },
    ]);
    await ok('mergeChangeRequest', t.client.spaces.mergeChangeRequest(spaceId, crId));
    const hit = await waitFor(
      async () => {
        const res = await ok('searchSpaceContent', t.client.spaces.searchSpaceContent(spaceId, { query: 'quokkas' }));
        return res.items.find((p) => p.title === 'Zebra crossing');
      },
      10_000,
      'the merged page in search',
    );
    expect(hit?.ancestors).toEqual([{ title: 'Guides' }]);
    const org = await ok(
      'searchOrganizationContent',
      t.client.orgs.searchOrganizationContent(orgId, { query: 'quokkas' }),
    );
    const inOrg = org.items.flatMap((s) => s.pages).find((p) => p.title === 'Zebra crossing');
    expect(inOrg?.ancestors).toEqual([{ title: 'Guides' }]);
  });

  it('needs edit access; a merged change request is closed', async () => {
    const crId = await newCr();
    const reader = await newMember(t, orgId, 'read', 'Reader');
    const editor = await newMember(t, orgId, 'edit', 'Editor');
    const change: ChangeRequestContentChange[] = [{ operation: 'insert_page', title: 'x', document: { markdown: '' } }];
    await fails(t.clientFor(reader.token).spaces.updateChangeRequestContent(spaceId, crId, { changes: change }), 403);
    await ok(
      'updateChangeRequestContent',
      t.clientFor(editor.token).spaces.updateChangeRequestContent(spaceId, crId, { changes: change }),
    );
    await t.client.spaces.mergeChangeRequest(spaceId, crId);
    await fails(send(crId, change), 400);
  });
});
