import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { contentImportJob } from '../../sync-server/api/content-import/job';
import { expectError, fails, ok, raw } from '../helpers/api';
import {
  allPages as all,
  markdownOf as markdownIn,
  pageByTitle,
  pagesOf,
  titles,
  type RunCounts,
} from '../helpers/content-import';
import { startSiteServer, type SiteServer } from '../helpers/import-site-server';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/**
 * Content import of websites: content/import of a space and of a change request (Folio keeps
 * GitBook's older operation), and GitBook's import runs through the official client (answers
 * validated against GitBook's schemas), on a server allowed to fetch from 127.0.0.1 only and a
 * limit of 10 pages, fed by a local site (helpers/import-site-server.ts), whose paced pages let a
 * test read a run while it runs. Imports run on the server's job runner. Files and exports:
 * content-import-files.test.ts.
 */

let t: TestServer;
let site: SiteServer;
let orgId: string;

beforeAll(async () => {
  site = await startSiteServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1', FOLIO_IMPORT_MAX_PAGES: '10' });
  // Short fetch limits, so the page that never answers fails in a second rather than twenty.
  t.server.ctx.jobRunner.register(contentImportJob(t.server.ctx, { fetchTimeoutMs: 1000, connectTimeoutMs: 1000 }));
  orgId = (await t.client.orgs.createOrganization({ title: 'Import Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
  await site?.close();
});

const newSpace = async (title = 'Imported') => (await t.client.orgs.createSpace(orgId, { title })).data.id;
const pages = (spaceId: string) => pagesOf(t, spaceId);
const byTitle = (spaceId: string, title: string) => pageByTitle(t, spaceId, title);
const markdownOf = (spaceId: string, pageId: string) => markdownIn(t, spaceId, pageId);
const importInto = (spaceId: string, source: unknown, token: string | null = t.adminToken) =>
  raw(t, 'POST', `/v1/spaces/${spaceId}/content/import`, { token, body: { source } });

describe('importing a website', () => {
  it('follows same-site links breadth-first into a tree from the URL paths, with markdown, files and page links', async () => {
    const spaceId = await newSpace();
    const res = await importInto(spaceId, { type: 'website', url: `${site.url}/` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = res.body as { revision: string; importedResources: number; totalResources: number };
    // 5 pages and the logo; the missing page (404) found but skipped; the external site never followed.
    expect(answer).toMatchObject({ importedResources: 6, totalResources: 7 });
    expect((await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).revision).toBe(answer.revision);
    expect(titles(await pages(spaceId))).toEqual(['Welcome', ['Guide', ['Install', 'Deep dive']], 'About']);
    expect(site.hits.filter((h) => h === '/guide/install')).toHaveLength(1); // loops: each page once

    const guide = await byTitle(spaceId, 'Guide');
    const install = await byTitle(spaceId, 'Install');
    const md = await markdownOf(spaceId, guide.id);
    expect(md).toContain('```js\nconst answer = 42;\nconsole.log(answer);\n```');
    expect(md).toMatch(/\| Option +\| Default +\|\n\| -+ \| -+ \|\n\| port +\| 8080 +\|/);
    expect(md).not.toContain(site.url); // links between imported pages, and the image, are no longer URLs
    expect(md).not.toContain('Test Docs'); // the site's header, navigation and footer are left out
    const files = await ok('listFiles', t.client.spaces.listFiles(spaceId));
    expect(files.items.map((f) => [f.name, f.contentType])).toEqual([['logo.png', 'image/png']]);
    const home = await markdownOf(spaceId, (await byTitle(spaceId, 'Welcome')).id);
    expect(home).toContain('[the external site](https://external.example/docs)');
    expect(home).toContain(`${site.url}/missing`); // a page that was not imported stays a link to the site
    const installMd = await markdownOf(spaceId, install.id);
    expect(installMd).toMatch(/\[guide\]\((?!http)[^)]+\)/);

    // A second import appends after what is there; nothing is deleted.
    const again = await importInto(spaceId, { type: 'website', url: `${site.url}/about` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const top = titles(await pages(spaceId));
    expect(top.slice(0, 3)).toEqual(['Welcome', ['Guide', ['Install', 'Deep dive']], 'About']);
    expect(top.length).toBeGreaterThan(3);
  });

  it('stops at FOLIO_IMPORT_MAX_PAGES pages', async () => {
    const spaceId = await newSpace();
    const res = await importInto(spaceId, { url: `${site.url}/many/` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = res.body as { importedResources: number; totalResources: number };
    expect(all(await pages(spaceId))).toHaveLength(10);
    expect(answer.totalResources).toBeGreaterThan(answer.importedResources);
  });

  it('imports into a change request as one revision of it, leaving the space alone', async () => {
    const spaceId = await newSpace();
    const cr = await ok(
      'createChangeRequest',
      t.client.spaces.createChangeRequest(spaceId, { subject: 'Import' }),
      201,
    );
    const before = await pages(spaceId);
    const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/import`, {
      token: t.adminToken,
      body: { source: { type: 'website', url: `${site.url}/guide/install` } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const crPages = await ok('listPagesInChangeRequest', t.client.spaces.listPagesInChangeRequest(spaceId, cr.id));
    // Started at /guide/install: the crawl stays in /guide/ (the home and about pages are not followed).
    expect(titles(crPages.pages as RevisionPage[])).toEqual([['Guide', ['Install', 'Deep dive']]]);
    const revision = await ok(
      'getRevisionOfChangeRequestById',
      t.client.spaces.getRevisionOfChangeRequestById(spaceId, cr.id),
    );
    expect(revision.id).toBe((res.body as { revision: string }).revision);
    expect(await pages(spaceId)).toEqual(before);
  });
});

describe('importing into a page', () => {
  it('puts the imported pages inside target.page', async () => {
    const spaceId = await newSpace();
    expect((await importInto(spaceId, { url: `${site.url}/guide/advanced/deep` })).status).toBe(200);
    const holder = await byTitle(spaceId, 'Deep dive');
    const run = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, {
        source: { type: 'website', url: `${site.url}/about` },
        target: { space: spaceId, page: holder.id },
      }),
      201,
    );
    await t.server.ctx.jobRunner.drain();
    expect((await ok('getImportRun', t.client.org.getImportRun(orgId, run.id))).status).toBe('completed');
    const tree = titles(await pages(spaceId));
    expect(tree[0]).toEqual(['Deep dive', expect.arrayContaining(['About', 'Welcome'])]);
  });
});

describe('a running run', () => {
  it('shows its counts as it reads: totalPages and importedPages grow with the crawl, then the final ones', async () => {
    const spaceId = await newSpace('Paced');
    const run = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, {
        source: { type: 'website', url: `${site.url}/paced/` },
        target: { space: spaceId },
      }),
      201,
    );
    const read = async () =>
      (await ok('getImportRun', t.client.org.getImportRun(orgId, run.id))) as RunCounts & {
        status: string;
        pages?: unknown[];
      };
    const fetching = (path: string) => waitFor(() => site.held().includes(path), 20_000, `the run to fetch ${path}`);
    // Progress is saved at most every 250 ms (and the last report always): poll until the state shows.
    const readUntil = async (what: string, seen: (r: Awaited<ReturnType<typeof read>>) => boolean) => {
      let last: Awaited<ReturnType<typeof read>> | undefined;
      await waitFor(async () => seen((last = await read())), 20_000, what, 25);
      return last!;
    };
    const afterPages = (n: number) => readUntil(`${n} pages read`, (r) => r.importedPages === n);
    const pageCounts = (r: RunCounts) => [r.importedPages, r.totalPages, r.skippedPages];

    // The start page is being fetched: the run runs and has read nothing, so it has no counts yet.
    await fetching('/paced/');
    const started = await read();
    expect(started.status).toBe('in-progress');
    expect(started.totalPages).toBeUndefined();

    // Each page is held until released: between two, the run says what it has read of what it found.
    site.release('/paced/');
    await fetching('/paced/1');
    const one = await afterPages(1);
    expect(one.status).toBe('in-progress');
    expect(pageCounts(one)).toEqual([1, 6, 0]); // the start page and its 5 links
    site.release('/paced/1');
    await fetching('/paced/2');
    expect(pageCounts(await afterPages(2))).toEqual([2, 6, 0]);
    site.release('/paced/2');
    await fetching('/paced/3');
    expect(pageCounts(await afterPages(3))).toEqual([3, 7, 0]); // /paced/2 links to one more page
    expect(site.held()).toEqual(['/paced/3']); // one fetch at a time: the counts are the crawl's, not a guess

    site.release('/paced');
    const done = await readUntil('the run to complete', (r) => r.status === 'completed');
    expect(done).toMatchObject({
      totalPages: 7,
      importedPages: 6,
      skippedPages: 1,
      totalFiles: 0,
      importedFiles: 0,
      skippedFiles: 0,
      skipped: [{ source: `${site.url}/paced/gone`, code: 'FETCH_ERROR', message: expect.stringMatching(/404/) }],
    });
    expect(done.pages).toHaveLength(6);
    expect(all(await pages(spaceId))).toHaveLength(6);
    // content/import answers the same run's resource counts.
    const again = await importInto(await newSpace('Paced again'), { type: 'website', url: `${site.url}/paced/` });
    expect(again.body).toMatchObject({ importedResources: 6, totalResources: 7 });
  });

  it('cancels a run that has not started', async () => {
    const spaceId = await newSpace();
    // A run of the same space holds it (one run per space at a time): the second waits, and is cancelled.
    const first = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, {
        source: { type: 'website', url: `${site.url}/slow` },
        target: { space: spaceId },
      }),
      201,
    );
    const second = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, {
        source: { type: 'website', url: `${site.url}/` },
        target: { space: spaceId },
      }),
      201,
    );
    const cancelled = await ok('cancelImportRun', t.client.org.cancelImportRun(orgId, second.id));
    expect(cancelled.status).toBe('cancelled');
    await t.server.ctx.jobRunner.drain();
    const failed = await ok('getImportRun', t.client.org.getImportRun(orgId, first.id));
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^FETCH_TIMEOUT/) });
    expect(all(await pages(spaceId))).toHaveLength(0);
  });

  it('counts a crawl cut by FOLIO_IMPORT_MAX_PAGES as "10 of 10" pages, and lists what it left', async () => {
    const spaceId = await newSpace();
    const run = await ok(
      'startImportRun',
      t.client.org.startImportRun(orgId, {
        source: { type: 'website', url: `${site.url}/many/` },
        target: { space: spaceId },
      }),
      201,
    );
    await t.server.ctx.jobRunner.drain();
    const done = (await ok('getImportRun', t.client.org.getImportRun(orgId, run.id))) as RunCounts & { status: string };
    // The total is what the run reads (up to the limit), so the app's bar ends full.
    expect(done).toMatchObject({ status: 'completed', totalPages: 10, importedPages: 10, skippedPages: 0 });
    expect(done.skipped).toEqual([
      expect.objectContaining({
        code: 'PAGE_LIMIT',
        message: expect.stringMatching(/^21 more pages .* limit of 10\b/),
      }),
    ]);
  });
});

describe('refusals', () => {
  it("answers bad input with a 4xx in GitBook's shape, and changes nothing", async () => {
    const spaceId = await newSpace();
    const cases: [unknown, number, RegExp?][] = [
      [undefined, 400],
      [{ type: 'website' }, 400],
      [{ type: 'website', url: 'not a url' }, 400, /source\.url/],
      [{ type: 'website', url: 'ftp://127.0.0.1/x' }, 400, /source\.url/],
      [{ type: 'website', url: 'http://user:pw@127.0.0.1/' }, 400, /source\.url/],
      [{ type: 'file', files: [] }, 400],
      [{ type: 'file', files: ['nosuchuploadkey0000000000'] }, 400, /no file was uploaded/],
      [{ type: 'ftp', url: 'x' }, 400],
      // Refused, unreachable, never answering, not a page: the run fails with its code, answered as a 400.
      [{ type: 'website', url: 'http://127.0.0.2/' }, 400, /INVALID_SOURCE/],
      [{ type: 'website', url: 'http://127.0.0.1:1/' }, 400, /FETCH_ERROR/],
      [{ type: 'website', url: `${site.url}/slow` }, 400, /FETCH_TIMEOUT/],
      [{ type: 'website', url: `${site.url}/missing` }, 400, /FETCH_ERROR/],
      [{ type: 'website', url: `${site.url}/img/logo.png` }, 400, /INVALID_SOURCE/],
    ];
    for (const [source, status, message] of cases) {
      const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/content/import`, {
        token: t.adminToken,
        body: source === undefined ? {} : { source },
      });
      expectError(res, status, message);
    }
    expectError(await importInto('nosuchspace', { url: `${site.url}/` }), 404);
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/nosuchcr/content/import`, {
        token: t.adminToken,
        body: { source: { url: `${site.url}/` } },
      }),
      404,
    );
    expectError(
      await raw(t, 'POST', `/v1/org/${orgId}/imports`, {
        token: t.adminToken,
        body: { source: { type: 'website', url: `${site.url}/` }, target: { space: spaceId, page: 'nosuchpage' } },
      }),
      404,
    );
    expectError(
      await raw(t, 'POST', `/v1/org/${orgId}/imports`, {
        token: t.adminToken,
        body: { source: { type: 'website', url: `${site.url}/` }, target: { space: spaceId }, site: 'nosuchsite' },
      }),
      404,
    );
    expectError(await raw(t, 'GET', `/v1/org/${orgId}/imports/nosuchrun`, { token: t.adminToken }), 404);
    expectError(await importInto(spaceId, { url: `${site.url}/` }, null), 401);
    expect(all(await pages(spaceId))).toHaveLength(0);
    expect(await ok('listFiles', t.client.spaces.listFiles(spaceId))).toMatchObject({ items: [] });
  });

  it('needs edit rights on the target; others see no runs of spaces they cannot see', async () => {
    const spaceId = await newSpace();
    const reader = await newMember(t, orgId, 'read');
    const editor = await newMember(t, orgId, 'edit');
    const otherOrg = (await t.client.orgs.createOrganization({ title: 'Other' })).data.id;
    const outsider = await newMember(t, otherOrg, 'admin');
    const source = { type: 'website', url: `${site.url}/about` };
    expectError(await importInto(spaceId, source, reader.token), 403);
    expectError(await importInto(spaceId, source, outsider.token), 404);
    expect(
      await fails(
        t.clientFor(reader.token).org.startImportRun(orgId, { source: source as never, target: { space: spaceId } }),
        403,
      ),
    ).toBeTruthy();
    expect(all(await pages(spaceId))).toHaveLength(0);
    const res = await importInto(spaceId, source, editor.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(titles(await pages(spaceId))[0]).toBe('About');
    const runs = await ok('listImportRuns', t.clientFor(reader.token).org.listImportRuns(orgId, { space: spaceId }));
    expect(runs.items).toHaveLength(1);
    expect(runs.items[0]!.createdBy).toBe(editor.id);
    expectError(await raw(t, 'GET', `/v1/org/${orgId}/imports`, { token: outsider.token }), 404);
  });
});

describe('stopping the server', () => {
  it('answers a waiting content/import with a 503 instead of holding the shutdown up', async () => {
    const t2 = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
    let closed = false;
    try {
      const org = (await t2.client.orgs.createOrganization({ title: 'Stopping' })).data.id;
      const spaceId = (await t2.client.orgs.createSpace(org, { title: 'S' })).data.id;
      const waiting = raw(t2, 'POST', `/v1/spaces/${spaceId}/content/import`, {
        token: t2.adminToken,
        body: { source: { url: `${site.url}/slow` } },
      });
      const slowBefore = site.hits.filter((h) => h === '/slow').length;
      const fetching = () => site.hits.filter((h) => h === '/slow').length > slowBefore;
      for (let i = 0; i < 100 && !fetching(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(fetching()).toBe(true);
      const started = Date.now();
      const closing = t2.close().then(() => (closed = true));
      expectError(await waiting, 503, /stopping/);
      await closing;
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      if (!closed) await t2.close();
    }
  });
});
