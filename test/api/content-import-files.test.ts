import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import type { RevisionPage } from '@gitbook/api';
import { expectError, ok, raw } from '../helpers/api';
import {
  allPages,
  markdownOf,
  pageByTitle,
  pagesOf,
  runImport,
  titles,
  uploadImportFile,
} from '../helpers/content-import';
import { exportZip, PNG, startSiteServer, type SiteServer } from '../helpers/import-site-server';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Content import of files: GitBook export .zip files (SUMMARY.md, its `##` page groups,
 * .gitbook/assets), uploaded markdown and HTML files, and the largest file a run keeps
 * (FOLIO_IMPORT_MAX_FILE_BYTES, 3 MiB on this server: above GitBook's 1 MiB inline limit, so a
 * 2 MiB image goes through), with what a run skips reported in it. Runs through the official
 * client, answers validated against GitBook's schemas.
 */

const MAX_FILE = 3 * 1024 * 1024;
let t: TestServer;
let site: SiteServer;
let orgId: string;

beforeAll(async () => {
  site = await startSiteServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1', FOLIO_IMPORT_MAX_FILE_BYTES: String(MAX_FILE) });
  orgId = (await t.client.orgs.createOrganization({ title: 'Import Files Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
  await site?.close();
});

const newSpace = async (title = 'Imported') => (await t.client.orgs.createSpace(orgId, { title })).data.id;
const pages = (spaceId: string) => pagesOf(t, spaceId);
const importInto = (spaceId: string, source: unknown) =>
  raw(t, 'POST', `/v1/spaces/${spaceId}/content/import`, { token: t.adminToken, body: { source } });
const upload = (name: string, type: string, body: Buffer) => uploadImportFile(t, orgId, name, type, body);
const zip = (files: Record<string, string | Buffer>) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v])),
      // Stored, not deflated: the random bytes of the large files would not shrink anyway.
      { level: 0 },
    ),
  );
/** Page types by title, depth first: 'group' for a SUMMARY.md heading. */
const types = (list: RevisionPage[]) => Object.fromEntries(allPages(list).map((p) => [p.title, p.type]));

describe('importing a GitBook export', () => {
  const expected = ['Introduction', ['Getting started', ['Setup']], ['Reference', ['API']]];

  it('reads SUMMARY.md for the tree and its groups, README.md first, .gitbook/assets as files, from a URL', async () => {
    site.set('export.zip', exportZip(), 'application/zip');
    const spaceId = await newSpace();
    const res = await importInto(spaceId, { type: 'website', url: `${site.url}/files/export.zip` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The group is no resource of the export: 4 pages and the image.
    expect(res.body).toMatchObject({ importedResources: 5, totalResources: 5 });
    const tree = await pages(spaceId);
    expect(titles(tree)).toEqual(expected);
    expect(types(tree)).toMatchObject({ Introduction: 'document', Reference: 'group', API: 'document' });
    const intro = await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Introduction')).id);
    expect(intro).toContain('Welcome to the export.');
    expect(intro).not.toContain('getting-started/setup.md');
    const files = await ok('listFiles', t.client.spaces.listFiles(spaceId));
    expect(files.items.map((f) => f.name)).toEqual(['diagram.png']);
    const setup = await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Setup')).id);
    expect(setup).toContain('```bash\nnpm install\n```');
  });

  it('takes uploaded files (GitBook file source), as a run on the job runner with its counts', async () => {
    const key = await upload('export.zip', 'application/zip', exportZip());
    const spaceId = await newSpace();
    const run = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, { source: { type: 'file', files: [key] }, target: { space: spaceId } }),
      201,
    );
    expect(run).toMatchObject({ object: 'import-run', target: { space: spaceId } });
    expect(['pending', 'in-progress', 'completed']).toContain(run.status);
    await t.server.ctx.jobRunner.drain();
    const done = await ok('getImportRun', t.client.org.getImportRun(orgId, run.id));
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.pages?.map((p) => [p.sourceURL, p.type])).toEqual([
      ['README.md', 'page'],
      ['getting-started/README.md', 'page'],
      ['getting-started/setup.md', 'page'],
      [undefined, 'folder'], // the "## Reference" group
      ['reference/api.md', 'page'],
    ]);
    expect(done).toMatchObject({ totalPages: 4, importedPages: 4, skippedPages: 0, totalFiles: 1, importedFiles: 1 });
    expect(titles(await pages(spaceId))).toEqual(expected);
    const listed = await ok('listImportRuns', t.client.org.listImportRuns(orgId, { space: spaceId }));
    expect(listed.items.map((r) => r.id)).toEqual([run.id]);
    const active = await ok('listImportRuns', t.client.org.listImportRuns(orgId, { status: 'active' }));
    expect(active.items.map((r) => r.id)).not.toContain(run.id);
    const cancel = await raw(t, 'POST', `/v1/org/${orgId}/imports/${run.id}/cancel`, { token: t.adminToken });
    expectError(cancel, 400, /already ended/);
  });
});

describe('SUMMARY.md groups', () => {
  const summary = [
    '# Table of contents',
    '',
    '* [Home](README.md)',
    '* [Start](start.md)',
    '  * [Install](start/install.md)',
    '',
    '## Guides',
    '',
    '* [Writing](guides/writing.md)',
    '  * [Style](guides/style.md)',
    '* [Gone](guides/gone.md)',
    '  * [Orphan](guides/orphan.md)',
    '',
    '## Nothing here',
    '',
    '* [Missing](missing.md)',
    '',
    '### Reference',
    '',
    '* [API](reference/api.md)',
    '',
  ].join('\n');
  const files = {
    'SUMMARY.md': summary,
    'README.md': '# Home\n\nWelcome.\n',
    'start.md': '# Start\n',
    'start/install.md': '# Install\n\nSee [writing](../guides/writing.md).\n',
    'guides/writing.md': '# Writing\n',
    'guides/style.md': '# Style\n',
    'guides/orphan.md': '# Orphan\n',
    'reference/api.md': '# API\n',
  };

  it('makes a root group of each heading, with the pages listed below it; the pages before the first stay at the root', async () => {
    const spaceId = await newSpace('Groups');
    const done = await runImport(t, orgId, {
      source: { type: 'file', files: [await upload('groups.zip', 'application/zip', zip(files))] },
      target: { space: spaceId },
    });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const tree = await pages(spaceId);
    expect(titles(tree)).toEqual([
      'Home',
      ['Start', ['Install']],
      // A page under a missing one goes to that one's place: here, the group.
      ['Guides', [['Writing', ['Style']], 'Orphan']],
      // "## Nothing here" lists only a missing file: no empty group. A deeper heading is a group too.
      ['Reference', ['API']],
    ]);
    expect(tree.map((p) => p.type)).toEqual(['document', 'document', 'group', 'group']);
    expect(types(tree)).toMatchObject({ Writing: 'document', Orphan: 'document', API: 'document' });
    // Links between pages still resolve across groups.
    const install = await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Install')).id);
    expect(install).toMatch(/\[writing\]\((?!\.\.\/guides)[^)]+\)/);
    // The files SUMMARY.md lists but the archive lacks are said, not dropped silently.
    expect(done).toMatchObject({ totalPages: 9, importedPages: 7, skippedPages: 2 });
    expect(done.skipped?.map((s) => [s.source, s.code])).toEqual([
      ['guides/gone.md', 'UNREADABLE'],
      ['missing.md', 'UNREADABLE'],
    ]);
  });

  it('keeps the headings as pages holding their pages when the import goes into a page (no group below the root)', async () => {
    const spaceId = await newSpace('Groups into a page');
    const holder = await runImport(t, orgId, {
      source: { type: 'file', files: [await upload('holder.md', 'text/markdown', Buffer.from('# Holder\n'))] },
      target: { space: spaceId },
    });
    expect(holder.status).toBe('completed');
    const into = (await pageByTitle(t, spaceId, 'Holder')).id;
    const done = await runImport(t, orgId, {
      source: { type: 'file', files: [await upload('groups.zip', 'application/zip', zip(files))] },
      target: { space: spaceId, page: into },
    });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const tree = await pages(spaceId);
    expect(titles(tree)).toEqual([
      [
        'Holder',
        ['Home', ['Start', ['Install']], ['Guides', [['Writing', ['Style']], 'Orphan']], ['Reference', ['API']]],
      ],
    ]);
    expect(types(tree)).toMatchObject({ Guides: 'document', Reference: 'document' });
  });
});

describe('the largest file a run keeps (FOLIO_IMPORT_MAX_FILE_BYTES)', () => {
  it('keeps an archive asset under the limit (over 1 MiB) and reports the one over it', async () => {
    const kept = randomBytes(2 * 1024 * 1024);
    const archive = zip({
      'README.md': '# Media\n\n![Kept](.gitbook/assets/kept.png)\n\n![Huge](.gitbook/assets/huge.png)\n',
      '.gitbook/assets/kept.png': kept,
      '.gitbook/assets/huge.png': randomBytes(MAX_FILE + 1),
    });
    const spaceId = await newSpace('Sizes');
    const done = await runImport(t, orgId, {
      source: { type: 'file', files: [await upload('media.zip', 'application/zip', archive)] },
      target: { space: spaceId },
    });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done).toMatchObject({ totalFiles: 2, importedFiles: 1, skippedFiles: 1, importedPages: 1 });
    expect(done.skipped).toEqual([
      {
        source: '.gitbook/assets/huge.png',
        code: 'FILE_TOO_LARGE',
        message: `${MAX_FILE + 1} bytes, over the limit of ${MAX_FILE} bytes (3 MiB) per file (FOLIO_IMPORT_MAX_FILE_BYTES)`,
      },
    ]);
    const listed = await ok('listFiles', t.client.spaces.listFiles(spaceId));
    expect(listed.items.map((f) => [f.name, f.size])).toEqual([['kept.png', kept.length]]);
  });

  it("skips a website's image over the limit, keeps the others, and says which", async () => {
    site.set('big.png', randomBytes(MAX_FILE + 1), 'image/png');
    site.set('small.png', PNG, 'image/png');
    site.set(
      'media.html',
      '<html><head><title>Media</title></head><body><main><h1>Media</h1>' +
        '<p><img src="big.png" alt="Big"> <img src="small.png" alt="Small"></p></main></body></html>',
      'text/html',
    );
    const spaceId = await newSpace('Website sizes');
    const done = await runImport(t, orgId, {
      source: { type: 'website', url: `${site.url}/files/media.html` },
      target: { space: spaceId },
    });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done).toMatchObject({ totalPages: 1, importedPages: 1, totalFiles: 2, importedFiles: 1, skippedFiles: 1 });
    expect(done.skipped).toEqual([
      {
        source: `${site.url}/files/big.png`,
        code: 'FILE_TOO_LARGE',
        message: expect.stringMatching(/3 MiB.*FOLIO_IMPORT_MAX_FILE_BYTES/),
      },
    ]);
    const listed = await ok('listFiles', t.client.spaces.listFiles(spaceId));
    expect(listed.items.map((f) => f.name)).toEqual(['small.png']);
    // The skipped image stays a link to where it was.
    const media = await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Media')).id);
    expect(media).toContain(`${site.url}/files/big.png`);
  });
});

describe('importing uploaded files', () => {
  it('makes a page of each markdown and HTML file, and a tree of an archive without SUMMARY.md', async () => {
    const archive = zip({
      'docs/README.md': '# Home\n\nSee [the step](guide/step.md).\n',
      'docs/guide/README.md': '# Guide\n',
      'docs/guide/step.md': '# Step\n\nBack [home](../README.md).\n',
      '__MACOSX/docs/._README.md': 'junk',
    });
    const keys = [
      await upload('notes.md', 'text/markdown', Buffer.from('# Notes\n\nSome *notes*.\n')),
      await upload(
        'page.html',
        'text/html',
        Buffer.from('<html><body><h1>Web page</h1><p>Hello <b>there</b>.</p></body></html>'),
      ),
      await upload('docs.zip', 'application/zip', archive),
    ];
    const spaceId = await newSpace();
    const res = await importInto(spaceId, { type: 'file', files: keys });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ importedResources: 5, totalResources: 5 });
    expect(titles(await pages(spaceId))).toEqual(['Notes', 'Web page', 'Home', ['Guide', ['Step']]]);
    expect(await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Web page')).id)).toBe('Hello **there**.');
    const home = await markdownOf(t, spaceId, (await pageByTitle(t, spaceId, 'Home')).id);
    expect(home).toMatch(/\[the step\]\((?!guide\/step\.md)[^)]+\)/);
  });
});
