import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { CloseCode } from '../../shared/sync-contract';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * Live edits over the sync protocol become revisions after the quiet period,
 * and the REST content API serves them (validated against GitBook's schemas).
 */
let t: TestServer;
let spaceId: string;
let orgId: string;
let client: Client;
let content: ContentDoc;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: '50' });
  orgId = (await t.client.orgs.createOrganization({ title: 'Content Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  client = connect(t.url, spaceId, t.adminToken);
  await synced(client);
  content = new ContentDoc(client.doc);
  ids.intro = content.createPage({
    title: 'Introduction',
    markdown: '# Welcome\n\nFolio keeps **docs** in sync.\n\n## Install\n\nRun the installer quickly.\n',
  });
  ids.guide = content.createPage({ title: 'Guides', kind: 'group' });
  ids.setup = content.createPage({
    title: 'Setup',
    parent: ids.guide,
    markdown: 'See [the intro](../introduction.md) and [nowhere](missing.md).\n',
  });
  await waitFor(
    async () => (await t.client.spaces.getCurrentRevision(spaceId)).data.pages.length === 2,
    10_000,
    'revision with pages',
  );
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
});

describe('REST content from live edits', () => {
  it('serves the current revision, its pages and a page by id and by path', async () => {
    const space = (await t.client.spaces.getSpaceById(spaceId)).data;
    const revision = await ok('getCurrentRevision', t.client.spaces.getCurrentRevision(spaceId));
    expect(revision.id).toBe(space.revision);
    expect(revision.pages.map((p) => p.title)).toEqual(['Introduction', 'Guides']);
    const pages = await ok('listPages', t.client.spaces.listPages(spaceId));
    expect(pages.pages).toHaveLength(2);
    const intro = await ok('getPageById', t.client.spaces.getPageById(spaceId, ids.intro!));
    expect(intro).toMatchObject({ title: 'Introduction', path: 'introduction' });
    expect((intro as { markdown?: string }).markdown).toContain('Folio keeps **docs** in sync.');
    const byPath = await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'guides/setup'));
    expect(byPath.id).toBe(ids.setup);
    const byRevision = await ok('getRevisionById', t.client.spaces.getRevisionById(spaceId, revision.id));
    expect(byRevision.id).toBe(revision.id);
    await ok('listPagesInRevisionById', t.client.spaces.listPagesInRevisionById(spaceId, revision.id));
    await ok('getPageInRevisionById', t.client.spaces.getPageInRevisionById(spaceId, revision.id, ids.intro!));
  });

  it('returns the structured document with format=document', async () => {
    const page = await ok(
      'getPageById',
      t.client.spaces.getPageById(spaceId, ids.intro!, { format: 'document' as never }),
    );
    const doc = (page as unknown as { document: { object: string; nodes: { type: string }[] } }).document;
    expect(doc.object).toBe('document');
    expect(doc.nodes.map((n) => n.type)).toContain('heading-1');
    expect((page as { markdown?: string }).markdown).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match and a new ETag after an edit', async () => {
    const first = await raw(t, 'GET', `/v1/spaces/${spaceId}/content`, { token: t.adminToken });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await raw(t, 'GET', `/v1/spaces/${spaceId}/content`, {
      token: t.adminToken,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    content.setMarkdown(ids.intro!, '# Welcome\n\nEdited live.\n');
    await waitFor(
      async () =>
        (
          await raw(t, 'GET', `/v1/spaces/${spaceId}/content`, {
            token: t.adminToken,
            headers: { 'if-none-match': etag },
          })
        ).status === 200,
      10_000,
      'new revision',
    );
    const page = (await t.client.spaces.getPageById(spaceId, ids.intro!)).data as { markdown?: string };
    expect(page.markdown).toContain('Edited live.');
  });

  it('finds text with full-text search in the space and the organization', async () => {
    content.setMarkdown(ids.setup!, 'Configure the **frobnicator** before launch.\n');
    const hits = await waitFor(
      async () => {
        const res = (await t.client.spaces.searchSpaceContent(spaceId, { query: 'frobnicator' })).data;
        return res.items.length > 0 ? res : undefined;
      },
      10_000,
      'search hit',
    );
    expect(hits!.items[0]).toMatchObject({ id: ids.setup, title: 'Setup', path: 'guides/setup' });
    await ok('searchSpaceContent', t.client.spaces.searchSpaceContent(spaceId, { query: 'frobnicator' }));
    const org = await ok(
      'searchOrganizationContent',
      t.client.orgs.searchOrganizationContent(orgId, { query: 'frobnicator' }),
    );
    expect(org.items[0]!.id).toBe(spaceId);
    expect((await t.client.spaces.searchSpaceContent(spaceId, { query: 'zzzunknownword' })).data.items).toEqual([]);
  });

  it('analyses links: space links with stats and status filter, page links, backlinks', async () => {
    content.setMarkdown(
      ids.setup!,
      'See [the intro](../introduction.md), [nowhere](missing.md) and [the app](' +
        t.server.ctx.urls.app('/o/x') +
        ').\n',
    );
    const broken = await waitFor(
      async () => {
        const res = (await raw(t, 'GET', `/v1/spaces/${spaceId}/links?status=broken`, { token: t.adminToken }))
          .body as { items: object[]; stats: { total: number; broken: { total: number } } };
        return res.items.length === 1 ? res : undefined;
      },
      10_000,
      'links',
    );
    expect(broken!.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 0 } });
    const all = (await raw(t, 'GET', `/v1/spaces/${spaceId}/links`, { token: t.adminToken })).body as {
      items: { status: string; targetReference: { kind: string; page?: string } }[];
    };
    expect(all.items.map((i) => i.status).sort()).toEqual(['broken', 'in-app', 'ok']);
    expect(all.items.find((i) => i.status === 'ok')!.targetReference).toMatchObject({
      kind: 'page',
      page: ids.intro,
      space: spaceId,
      organization: orgId,
    });
    const pageLinks = (
      await raw(t, 'GET', `/v1/spaces/${spaceId}/content/page/${ids.setup}/links?status=ok`, { token: t.adminToken })
    ).body as { items: object[] };
    expect(pageLinks.items).toHaveLength(1);
    const back = (
      await raw(t, 'GET', `/v1/spaces/${spaceId}/content/page/${ids.intro}/backlinks`, { token: t.adminToken })
    ).body as { items: { page: string }[]; count: number };
    expect(back.items.map((r) => r.page)).toEqual([ids.setup]);
    expect((await raw(t, 'GET', `/v1/spaces/${spaceId}/links?status=weird`, { token: t.adminToken })).status).toBe(400);
  });

  it('serves files with signed download URLs and their backlinks', async () => {
    const bytes = Buffer.from('hello, file');
    const slot = (
      await t.client.orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'hello.txt', type: 'text/plain', size: bytes.length },
        kind: 'organization_file' as never,
      })
    ).data;
    const uploaded = (await (await fetch(slot.url, { method: 'PUT', body: new Uint8Array(bytes) })).json()) as {
      sha256: string;
    };
    content.putFile('helloFileId000000000', {
      name: 'hello.txt',
      contentType: 'text/plain',
      size: bytes.length,
      sha256: uploaded.sha256,
    });
    content.setMarkdown(ids.intro!, 'Download [the file](/files/helloFileId000000000).\n');
    const files = await waitFor(
      async () => {
        const res = (await t.client.spaces.listFiles(spaceId)).data;
        return res.items.length === 1 ? res : undefined;
      },
      10_000,
      'file in revision',
    );
    await ok('listFiles', t.client.spaces.listFiles(spaceId));
    const file = await ok('getFileById', t.client.spaces.getFileById(spaceId, 'helloFileId000000000'));
    expect(file).toMatchObject({ name: 'hello.txt', contentType: 'text/plain', size: bytes.length });
    expect(files!.items[0]!.downloadURL).toBe(file.downloadURL);
    const download = await fetch(file.downloadURL);
    expect(await download.text()).toBe('hello, file');
    const back = await waitFor(
      async () => {
        const res = (
          await raw(t, 'GET', `/v1/spaces/${spaceId}/content/files/helloFileId000000000/backlinks`, {
            token: t.adminToken,
          })
        ).body as { items: { page: string }[] };
        return res.items.length === 1 ? res : undefined;
      },
      10_000,
      'file backlink',
    );
    expect(back!.items[0]!.page).toBe(ids.intro);
  });

  it('duplicates a space with its content', async () => {
    const copy = await ok('duplicateSpace', t.client.spaces.duplicateSpace(spaceId), 201);
    const original = (await t.client.spaces.getCurrentRevision(spaceId)).data;
    const copied = await ok('getCurrentRevision', t.client.spaces.getCurrentRevision(copy.id));
    expect(copied.id).not.toBe(original.id);
    expect(copied.pages.map((p) => p.title)).toEqual(original.pages.map((p) => p.title));
    // The copy's live document has the content too, and edits there stay there.
    const other = connect(t.url, copy.id, t.adminToken);
    try {
      await synced(other);
      const copyContent = new ContentDoc(other.doc);
      expect(copyContent.getMarkdown(ids.intro!)).toBe(content.getMarkdown(ids.intro!));
      copyContent.setMarkdown(ids.intro!, 'Only in the copy.\n');
      await waitFor(
        async () =>
          ((await t.client.spaces.getPageById(copy.id, ids.intro!)).data as { markdown?: string }).markdown ===
          'Only in the copy.\n',
        10_000,
        'copy edit',
      );
      expect(
        ((await t.client.spaces.getPageById(spaceId, ids.intro!)).data as { markdown?: string }).markdown,
      ).not.toBe('Only in the copy.\n');
    } finally {
      other.destroy();
    }
  });

  it('ignores edits from a member who may only read or comment, as REST shows', async () => {
    const before = (await t.client.spaces.getCurrentRevision(spaceId)).data;
    for (const role of ['read', 'comment'] as const) {
      const member = await newMember(t, orgId, role);
      const reader = connect(t.url, spaceId, member.token);
      try {
        await synced(reader);
        new ContentDoc(reader.doc).createPage({ title: `Sneaky ${role}` });
        await waitFor(() => reader.closes.some((c) => c.code === CloseCode.readOnly), 10_000, 'read-only close');
      } finally {
        reader.destroy();
      }
    }
    await sleep(300); // several quiet periods
    const after = (await t.client.spaces.getCurrentRevision(spaceId)).data;
    expect(after.pages.map((p) => p.title)).toEqual(before.pages.map((p) => p.title));
  });

  it('keeps unknown ids and other spaces out', async () => {
    const other = (await t.client.orgs.createSpace(orgId, { title: 'Other' })).data;
    const revision = (await t.client.spaces.getCurrentRevision(spaceId)).data.id;
    expect((await raw(t, 'GET', `/v1/spaces/${other.id}/revisions/${revision}`, { token: t.adminToken })).status).toBe(
      404,
    );
    expect((await raw(t, 'GET', `/v1/spaces/${spaceId}/content/page/nope`, { token: t.adminToken })).status).toBe(404);
    expect(
      (await raw(t, 'GET', `/v1/spaces/${spaceId}/content/path/no/such/page`, { token: t.adminToken })).status,
    ).toBe(404);
    expect((await raw(t, 'GET', `/v1/spaces/${spaceId}/content`)).status).toBe(401);
  });
});
