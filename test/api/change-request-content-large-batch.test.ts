import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { editedPage, largePage, pageBlocks } from '../helpers/large-markdown';
import { startTestServer, type TestServer } from '../helpers/server';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * Security issue "an editor stalls the server": an 8 MB batch of 50
 * insert_page and a ~4.2 MB batch of 20 update_page, sent to a change request
 * while /healthz is polled. The server must keep answering (the worst wait is
 * printed, not asserted: timings belong to benchmarks), every page must read
 * back exactly as sent, and the big bodies must still be changed word by word:
 * a collaborator typing in a paragraph the batch leaves alone keeps it.
 */
let t: TestServer;
let spaceId: string;
const links: string[] = [];
const clients = new SyncClients();

const INSERT_CHARS = 160_000;
const EXTRA_CHARS = 50_000;
/** Pause between two /healthz probes (ms). */
const PROBE_GAP_MS = 20;

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Large batch org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const content = new ContentDoc(doc);
    for (let i = 0; i < 5; i++) links.push(content.createPage({ title: `Linked ${i}`, markdown: `Page ${i}.\n` }));
  });
}, 60_000);
afterEach(() => clients.destroyAll());
afterAll(async () => {
  await t?.close();
});

async function newCr(): Promise<string> {
  const res = await fetch(`${t.url}/v1/spaces/${spaceId}/change-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** POSTs the batch while polling /healthz one request at a time; prints the worst wait and the request's time. */
async function sendWhilePolling(label: string, crId: string, body: string) {
  const started = performance.now();
  let done = false;
  const request = fetch(`${t.url}/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body,
  })
    .then(async (res) => ({ status: res.status, json: (await res.json()) as unknown }))
    .finally(() => (done = true));
  // The server runs in this process: a blocked event loop delays the probe's timer as much as its answer,
  // so a probe's wait runs from when it was due (the previous answer + the gap), and one probe runs after.
  let worst = 0;
  let probes = 0;
  let due = performance.now();
  for (let last = false; !last;) {
    last = done;
    const res = await fetch(`${t.url}/healthz`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    worst = Math.max(worst, performance.now() - due);
    probes++;
    due = performance.now() + PROBE_GAP_MS;
    await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  const answer = await request;
  const ms = performance.now() - started;
  console.log(
    `${label}: ${(body.length / 1e6).toFixed(1)} MB, request ${ms.toFixed(0)} ms, /healthz worst wait ${worst.toFixed(0)} ms over ${probes} probes`,
  );
  expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(200);
  return answer.json as { changes: { object: string; page: { id: string; urls: { location: string } } }[] };
}

const serverMarkdown = (crId: string, ids: readonly string[]) =>
  t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => {
    const content = new ContentDoc(doc);
    return ids.map((id) => content.getMarkdown(id));
  });

describe('updateChangeRequestContent with large batches', () => {
  it('applies 50 big insert_page and 20 big update_page exactly, answering /healthz meanwhile', async () => {
    const crId = await newCr();
    const inserted = Array.from({ length: 50 }, (_, i) => largePage(i + 1, INSERT_CHARS, links));
    const insertBody = JSON.stringify({
      changes: inserted.map((markdown, i) => ({ operation: 'insert_page', title: `P${i}`, document: { markdown } })),
    });
    expect(insertBody.length).toBeGreaterThan(8_000_000);
    const res = await sendWhilePolling('50 x insert_page', crId, insertBody);
    const ids = res.changes.map((c) => c.page.id);
    expect(ids).toHaveLength(50);
    expect(await serverMarkdown(crId, ids)).toEqual(inserted);

    const updated = ids.slice(0, 20).map((_, i) => editedPage(i + 1, INSERT_CHARS, links, { extraChars: EXTRA_CHARS }));
    const updateBody = JSON.stringify({
      changes: updated.map((markdown, i) => ({ operation: 'update_page', page: ids[i], document: { markdown } })),
    });
    expect(updateBody.length).toBeGreaterThan(4_000_000);
    await sendWhilePolling('20 x update_page', crId, updateBody);
    expect(await serverMarkdown(crId, ids)).toEqual([...updated, ...inserted.slice(20)]);
    // And through the API, as a reader sees it.
    const read = await fetch(`${res.changes[3]!.page.urls.location}?format=markdown`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { markdown: string }).markdown).toBe(updated[3]);
  }, 240_000);

  it("keeps a writer's concurrent typing in a big page the batch rewrites elsewhere", async () => {
    const crId = await newCr();
    const original = largePage(7, INSERT_CHARS, links);
    const edited = editedPage(7, INSERT_CHARS, links, { extraChars: EXTRA_CHARS });
    let pageId = '';
    await t.server.ctx.hub.change(crContentDoc(crId), (doc) => {
      pageId = new ContentDoc(doc).createPage({ title: 'Big', markdown: original });
    });
    // A paragraph the edit leaves as it is, far into the page.
    const kept = pageBlocks(7, INSERT_CHARS, links)
      .slice(100)
      .find((b) => !b.startsWith('#') && !b.startsWith('`') && edited.includes(`\n${b}\n`))!;
    expect(original.indexOf(kept)).toBe(original.lastIndexOf(kept));

    const client = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    expect(live.getMarkdown(pageId)).toBe(original);
    // The writer types while their edits are not yet on the server…
    client.provider.disconnect();
    live.pageBody(pageId).insert(original.indexOf(kept), 'TYPED ');
    // …and meanwhile a batch rewrites the page (a diff too large for the event loop).
    await sendWhilePolling(
      '1 x update_page with a writer',
      crId,
      JSON.stringify({ changes: [{ operation: 'update_page', page: pageId, document: { markdown: edited } }] }),
    );
    client.provider.connect();
    const at = edited.indexOf(kept);
    const expected = `${edited.slice(0, at)}TYPED ${edited.slice(at)}`;
    await waitFor(() => live.getMarkdown(pageId) === expected, 20_000, 'the client to converge');
    await waitFor(async () => (await serverMarkdown(crId, [pageId]))[0] === expected, 20_000, 'the server');
  }, 120_000);

  it('converges when a writer types in a page of the batch while its diff is computed', async () => {
    const crId = await newCr();
    const original = largePage(9, INSERT_CHARS, links);
    const edited = editedPage(9, INSERT_CHARS, links, { extraChars: EXTRA_CHARS });
    let pageId = '';
    await t.server.ctx.hub.change(crContentDoc(crId), (doc) => {
      pageId = new ContentDoc(doc).createPage({ title: 'Big', markdown: original });
    });
    const client = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    const body = live.pageBody(pageId);
    const kept = pageBlocks(9, INSERT_CHARS, links)
      .slice(100)
      .find((b) => !b.startsWith('#') && !b.startsWith('`') && edited.includes(`\n${b}\n`))!;
    // Keystrokes reach the server while the batch is between its dry run and its commit (or either side of it).
    const batch = sendWhilePolling(
      '1 x update_page, typing meanwhile',
      crId,
      JSON.stringify({ changes: [{ operation: 'update_page', page: pageId, document: { markdown: edited } }] }),
    );
    for (let i = 0; i < 20; i++) {
      body.insert(body.toString().indexOf(kept), `k${i} `);
      await new Promise((r) => setTimeout(r, 15));
    }
    await batch;
    // Whatever the server had seen when it applied the batch, the page reads as the batch said plus
    // the keystrokes it had not seen, and the server and the writer agree.
    const typed = (text: string) => text.replace(/k\d+ /g, '');
    await waitFor(
      async () => (await serverMarkdown(crId, [pageId]))[0] === live.getMarkdown(pageId),
      20_000,
      'the writer and the server to agree',
    );
    expect(typed(live.getMarkdown(pageId))).toBe(edited);
  }, 120_000);
});
