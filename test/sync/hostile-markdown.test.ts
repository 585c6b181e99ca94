import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { markdownToDocument, type JSONDocument } from '../../shared/markdown';
import { spaceContentDoc } from '../../shared/sync-contract';
import { signedPdfUrl } from '../../sync-server/pdf/routes';
import { ok, raw } from '../helpers/api';
import { pdfText } from '../helpers/pdf-text';
import { HOSTILE_PAGES, SLOW_BUT_WITHIN_LIMITS } from '../helpers/hostile-markdown';
import { startTestServer, type TestServer } from '../helpers/server';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * Issue 13, defect 1: pages that take seconds to parse (nested brackets, a
 * 600-level list, a 2,000-column table, and pages of an ordinary shape that
 * are merely slow) must not freeze the server. Editors write them over
 * y-websocket; the revision is cut, and REST `format=document`, published
 * sites and PDFs serve them degraded (preformatted, marked) while normal
 * pages come out exactly as before and other requests keep being answered.
 */

const NORMAL =
  '# Welcome\n\nSee [the table page](./wide-table.md) and **more**.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- one\n  - two\n';

let t: TestServer;
let client: Client;
let orgId: string;
let spaceId: string;
const ids: Record<string, string> = {};

type PageWithDocument = { document: JSONDocument; markdown?: string };

/**
 * A page's `document`. Validating a body against GitBook's schema costs a few ms per code line
 * (thousands for some pages here), so only short ones are validated.
 */
async function documentOf(pageId: string, server = t, space = spaceId): Promise<JSONDocument> {
  const call = server.client.spaces.getPageById(space, pageId, { format: 'document' as never });
  const body = (await call).data as unknown as PageWithDocument;
  const blocks = JSON.stringify(body).split('"object":"block"').length - 1;
  if (blocks < 200) await ok('getPageById', Promise.resolve({ status: 200, data: body }));
  return body.document;
}

/** A published page: status and HTML. */
async function page(server: TestServer, path: string) {
  const res = await raw(server, 'GET', path);
  return { status: res.status, html: String(res.body) };
}

/** The text of a degraded document's code block. */
const codeText = (doc: JSONDocument) =>
  (doc.nodes[0]!.nodes as { nodes: { leaves: { text: string }[] }[] }[])
    .map((line) => line.nodes[0]!.leaves[0]!.text)
    .join('\n');

beforeAll(async () => {
  t = await startTestServer({ FOLIO_REVISION_QUIET_MS: '50' });
  orgId = (await t.client.orgs.createOrganization({ title: 'Hostile Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  client = connect(t.url, spaceId, t.adminToken);
  await synced(client);
  const content = new ContentDoc(client.doc);
  ids.normal = content.createPage({ title: 'Welcome', slug: 'welcome', markdown: NORMAL });
  ids.brackets = content.createPage({ title: 'Brackets', slug: 'brackets', markdown: HOSTILE_PAGES.brackets });
  ids.nestedList = content.createPage({ title: 'Nested', slug: 'nested', markdown: HOSTILE_PAGES.nestedList });
  ids.wideTable = content.createPage({ title: 'Wide table', slug: 'wide-table', markdown: HOSTILE_PAGES.wideTable });
  // noIndex: the search index does not analyse it, so the first parse happens on a read.
  ids.slow = content.createPage({ title: 'Slow', slug: 'slow', markdown: SLOW_BUT_WITHIN_LIMITS, noIndex: true });
  await waitFor(
    async () => (await t.client.spaces.getCurrentRevision(spaceId)).data.pages.length === 5,
    60_000,
    'the revision with the five pages',
  );
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
});

describe('pages too complex to format', () => {
  it('are served over REST format=document as one code block marked with the reason', async () => {
    const reasons = { brackets: 'nesting', nestedList: 'nesting', wideTable: 'table-columns' } as const;
    for (const [name, reason] of Object.entries(reasons)) {
      const doc = await documentOf(ids[name]!);
      expect(doc.data.degraded, name).toMatchObject({ reason, message: expect.any(String) });
      expect(doc.nodes.map((n) => n.type)).toEqual(['code']);
      expect(codeText(doc)).toBe(HOSTILE_PAGES[name as keyof typeof HOSTILE_PAGES].replace(/\n$/, ''));
      // The markdown form is the text itself, as always.
      const page = (await t.client.spaces.getPageById(spaceId, ids[name]!)).data as { markdown?: string };
      expect(page.markdown).toBe(HOSTILE_PAGES[name as keyof typeof HOSTILE_PAGES]);
    }
  });

  it('leave normal pages exactly as they were', async () => {
    const doc = await documentOf(ids.normal!);
    expect(doc).toEqual(markdownToDocument(NORMAL, { blockKeys: true }));
    expect(doc.data.degraded).toBeUndefined();
  });

  it('stay findable by search through their text', async () => {
    const res = (await t.client.spaces.searchSpaceContent(spaceId, { query: 'deep' })).data;
    expect(res.items.map((i) => i.id)).toContain(ids.nestedList);
  });

  it('are shown as plain text on a published site, marked; other URL spellings parse nothing', async () => {
    const siteId = (await t.client.orgs.createSite(orgId, { title: 'Hostile Site', spaces: [spaceId] })).data.id;
    await t.client.orgs.publishSite(orgId, siteId);
    const brackets = await page(t, `/sites/${siteId}/brackets`);
    expect(brackets.status).toBe(200);
    expect(brackets.html).toContain('<div class="folio-degraded" data-degraded="nesting">');
    expect(brackets.html).toContain('This page is shown as plain text');
    expect(brackets.html).toContain('<pre class="folio-degraded-text">[[[[');
    const table = await page(t, `/sites/${siteId}/wide-table`);
    expect(table.html).toContain('data-degraded="table-columns"');
    expect(table.html).not.toContain('<table');

    const normal = await page(t, `/sites/${siteId}/welcome`);
    // The body's `# Welcome` repeats the page title: the site shows the title once.
    expect(normal.html).toContain('<h1 class="title">Welcome</h1>');
    expect(normal.html).not.toContain('<h1 id="welcome">');
    expect(normal.html).toContain(`<a href="/sites/${siteId}/wide-table">the table page</a>`);
    expect(normal.html).toContain('<table>');
    expect(normal.html).not.toContain('folio-degraded');
    // The site root shows the same first page under another URL (another rendered-page cache entry).
    const tasks = t.server.ctx.markdown.stats().tasks;
    for (const spelling of ['', 'welcome/', '%77elcome']) {
      const again = await page(t, `/sites/${siteId}/${spelling}`);
      expect(again.status, spelling).toBe(200);
      expect(again.html, spelling).toContain('<h1 class="title">Welcome</h1>');
    }
    expect(t.server.ctx.markdown.stats().tasks).toBe(tasks);
  });

  it('are printed as plain text in PDFs', async () => {
    const revision = (await t.client.spaces.getCurrentRevision(spaceId)).data.id;
    const res = await fetch(signedPdfUrl(t.server.ctx, revision, ids.wideTable));
    expect(res.status).toBe(200);
    const text = await pdfText(await res.arrayBuffer());
    expect(text).toContain('This page is shown as plain text');
    expect(text).toContain('| c | c |');
  });

  it('are parsed off the event loop: the server keeps answering while a slow page is parsed', async () => {
    let documentDone = false;
    const document = documentOf(ids.slow!).finally(() => (documentDone = true));
    // Before the fix the parse ran on the event loop: nothing else was answered until it ended.
    let answeredMeanwhile = 0;
    while (!documentDone) {
      const [health, space] = await Promise.all([
        raw(t, 'GET', '/healthz'),
        raw(t, 'GET', `/v1/spaces/${spaceId}`, { token: t.adminToken }),
      ]);
      if (!documentDone && health.status === 200 && space.status === 200) answeredMeanwhile++;
      await sleep(20);
    }
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
    // Whether it finished within the time budget or not, the page is served.
    const doc = await document;
    expect(doc.object).toBe('document');
  });
});

describe('the time budget', () => {
  let tight: TestServer;
  let tightSpace: string;
  let tightOrg: string;
  let slowId: string;
  beforeAll(async () => {
    // A budget of 1 ms: the slow page (seconds of parsing, within every limit) always runs out.
    tight = await startTestServer({ FOLIO_MARKDOWN_TIMEOUT_MS: '1' });
    tightOrg = (await tight.client.orgs.createOrganization({ title: 'Tight Org' })).data.id;
    tightSpace = (await tight.client.orgs.createSpace(tightOrg, { title: 'Docs' })).data.id;
    await tight.server.ctx.hub.change(spaceContentDoc(tightSpace), (doc) => {
      const content = new ContentDoc(doc);
      slowId = content.createPage({ title: 'Slow', slug: 'slow', markdown: SLOW_BUT_WITHIN_LIMITS });
    });
    await tight.server.ctx.snapshots.revise(tightSpace);
  });
  afterAll(async () => {
    await tight?.close();
  });

  it('ends a parse that runs out of time and serves the page degraded, marked "timeout"', async () => {
    const slow = await documentOf(slowId, tight, tightSpace);
    expect(slow.data.degraded).toMatchObject({ reason: 'timeout' });
    expect(codeText(slow)).toBe(SLOW_BUT_WITHIN_LIMITS.replace(/\n$/, ''));
    const siteId = (await tight.client.orgs.createSite(tightOrg, { title: 'Tight', spaces: [tightSpace] })).data.id;
    await tight.client.orgs.publishSite(tightOrg, siteId);
    const html = await page(tight, `/sites/${siteId}/slow`);
    expect(html.status).toBe(200);
    expect(html.html).toContain('data-degraded="timeout"');
    // One parse ran out of time: the revision's search indexing. From then on the text is known as too
    // complex, and neither read spent another time budget on it.
    expect(tight.server.ctx.markdown.stats()).toMatchObject({ tasks: 1, timeouts: 1 });
  });
});
