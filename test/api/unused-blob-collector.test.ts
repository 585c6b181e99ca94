import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc, newEntityId } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { recordBlobOwners } from '../../sync-server/store/blob-owners';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok } from '../helpers/api';

/**
 * The collector of unused blobs (a periodic job): after its grace period it
 * deletes stored bytes nothing names, and keeps every blob a revision, a live
 * document, an upload or a site's settings names — also while a batch that
 * will name it is still being applied.
 */
let t: TestServer;
let orgId: string;
let spaceId: string;
let source: http.Server;
let base: string;
/** Resolves when the source server receives a request for /slow; its answer waits for `releaseSlow`. */
let slowArrived: Promise<void>;
let releaseSlow: () => void;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  let arrived!: () => void;
  slowArrived = new Promise((r) => (arrived = r));
  const released = new Promise<void>((r) => (releaseSlow = r));
  source = http.createServer((req, res) => {
    if (req.url === '/slow') {
      arrived();
      void released.then(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow bytes'));
    } else res.writeHead(200, { 'content-type': 'text/plain' }).end(`fast:${req.url}`);
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  orgId = (await t.client.orgs.createOrganization({ title: 'Collector Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
});
afterAll(async () => {
  releaseSlow?.();
  await t?.close();
  source?.closeAllConnections();
  await new Promise((r) => source?.close(r));
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Stores `text` as a blob owned by the test organization (as an upload or a batch would). */
async function putBlob(text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const { sha256 } = await t.server.ctx.storage.blobs.putStream(Readable.from([bytes]), bytes.length);
  await recordBlobOwners(t.server.ctx.db, orgId, [sha256]);
  return sha256;
}

/** Whether the blob's file is in the data dir (`blobs/ab/cd/<sha256>`). */
async function stored(sha256: string): Promise<boolean> {
  const path = join(t.server.ctx.config.dataDir, 'blobs', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function owners(sha256: string): Promise<number> {
  const rows = await t.server.ctx.db.query('SELECT 1 FROM blob_owners WHERE sha256 = $1', [sha256]);
  return rows.length;
}

/** Adds a file entry naming `sha256` to a content document (as a writer's app does over sync). */
async function nameInDocument(doc: string, sha256: string, name: string): Promise<void> {
  await t.server.ctx.hub.change(doc, (d) => {
    new ContentDoc(d).putFile(newEntityId(), { name, contentType: 'text/plain', size: 1, sha256 });
  });
}

async function insertFiles(crId: string, files: Record<string, unknown>[]) {
  return (await ok(
    'updateChangeRequestContent',
    t.client.spaces.updateChangeRequestContent(
      spaceId,
      crId,
      { changes: [{ operation: 'insert_files', files: files as never }] },
      { compat: false },
    ),
  )) as ChangeRequestContentUpdate;
}

describe('the collector of unused blobs', () => {
  it('keeps every blob something names and deletes the others once the purge and the grace period passed', async () => {
    const inSpaceRevision = await putBlob('named by a space revision');
    await nameInDocument(spaceContentDoc(spaceId), inSpaceRevision, 'space.txt');
    await t.server.ctx.snapshots.revise(spaceId);

    const crId = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
    await insertFiles(crId, [
      { name: 'cr.txt', contentType: 'text/plain', base64: Buffer.from('inserted by a batch').toString('base64') },
    ]);
    const inBatch = sha('inserted by a batch');

    // Named only by a change request's live document: no revision was cut.
    const liveCr = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
    const inLiveDoc = await putBlob('named by a live document only');
    await nameInDocument(crContentDoc(liveCr), inLiveDoc, 'live.txt');

    const slot = (
      await t.client.orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'upload.txt', type: 'text/plain', size: 'an upload'.length },
        kind: 'organization_file' as never,
      })
    ).data;
    expect((await fetch(slot.url, { method: 'PUT', body: 'an upload' })).status).toBe(200);
    const inUpload = sha('an upload');

    const inLogo = await putBlob('a site logo');
    const logoUrl = t.server.ctx.storage.downloadUrl(
      { sha256: inLogo, name: 'logo.png', contentType: 'image/png' },
      spaceId,
    );
    const siteId = (await t.client.orgs.createSite(orgId, { title: 'Site', spaces: [spaceId] } as never)).data.id;
    await t.client.orgs.updateSiteCustomizationById(orgId, siteId, {
      header: { logo: { light: logoUrl, dark: logoUrl } },
    } as never);

    const unused = await putBlob('named by nothing');

    const doomedSpace = (await t.client.orgs.createSpace(orgId, { title: 'Doomed' })).data.id;
    const inDeletedSpace = await putBlob('named by a space deleted for good');
    await nameInDocument(spaceContentDoc(doomedSpace), inDeletedSpace, 'gone.txt');
    await t.server.ctx.snapshots.revise(doomedSpace);
    await t.client.spaces.deleteSpaceById(doomedSpace);

    const kept = [inSpaceRevision, inBatch, inLiveDoc, inUpload, inLogo];
    // Everything is younger than a day: nothing goes yet, not even what nothing names.
    expect((await t.server.jobs.runAll()).collectedBlobs).toBe(0);
    for (const blob of [...kept, unused, inDeletedSpace]) expect(await stored(blob)).toBe(true);

    t.clock.advance(8 * DAY);
    const report = await t.server.jobs.runAll();
    expect(report.purgedSpaces).toBe(1);
    expect(report.collectedBlobs).toBe(2);
    for (const blob of kept) expect(await stored(blob), blob).toBe(true);
    expect(await stored(unused)).toBe(false);
    expect(await stored(inDeletedSpace)).toBe(false);
    expect(await owners(unused)).toBe(0);
    expect(await owners(inBatch)).toBe(1);
    // Links handed out now (the old ones expired with the 8 days): what was kept downloads, what went is a 404.
    const link = (sha256: string) =>
      t.server.ctx.storage.downloadUrl({ sha256, name: 'f.txt', contentType: 'text/plain' }, spaceId);
    expect((await fetch(link(unused))).status).toBe(404);
    expect(await (await fetch(link(inBatch))).text()).toBe('inserted by a batch');
    expect(await (await fetch(link(inLogo))).text()).toBe('a site logo');
    // A second run finds nothing more.
    expect((await t.server.jobs.runAll()).collectedBlobs).toBe(0);
  });

  it('keeps an unused blob for a day after it was written', async () => {
    const fresh = await putBlob('unused but fresh');
    expect((await t.server.jobs.runAll()).collectedBlobs).toBe(0);
    expect(await stored(fresh)).toBe(true);
    t.clock.advance(DAY / 2);
    await t.server.jobs.runAll();
    expect(await stored(fresh)).toBe(true);
    t.clock.advance(DAY);
    expect((await t.server.jobs.runAll()).collectedBlobs).toBe(1);
    expect(await stored(fresh)).toBe(false);
  });

  it('never takes the bytes of a batch still being applied, even bytes it is collecting at that moment', async () => {
    // Old, unused bytes that the batch below fetches again.
    const same = await putBlob('fast:/again');
    t.clock.advance(2 * DAY);
    const crId = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
    const applying = insertFiles(crId, [
      { name: 'again.txt', url: `${base}/again` },
      { name: 'fresh.txt', url: `${base}/fresh` },
      { name: 'slow.txt', url: `${base}/slow` },
    ]);
    await slowArrived;
    // The batch has fetched two files and waits for the third; the collector runs meanwhile, days later.
    t.clock.advance(2 * DAY);
    const report = await t.server.jobs.runAll();
    expect(report.collectedBlobs).toBe(1);
    expect(await stored(same)).toBe(false);
    releaseSlow();
    const res = await applying;
    const texts = await Promise.all(
      res.insertedFiles!.map(async (f) => {
        const download = await fetch(f.downloadURL);
        expect(download.status).toBe(200);
        return download.text();
      }),
    );
    expect(texts).toEqual(['fast:/again', 'fast:/fresh', 'slow bytes']);
    for (const text of texts) {
      expect(await stored(sha(text))).toBe(true);
      expect(await owners(sha(text))).toBe(1);
    }
    t.clock.advance(2 * DAY);
    expect((await t.server.jobs.runAll()).collectedBlobs).toBe(0);
  });

  it('runs in one process at a time', async () => {
    const report = await t.server.ctx.db.withLock('job:collect-unused-blobs', () => t.server.jobs.runAll());
    expect(report).toMatchObject({ acquired: true, value: { collectedBlobs: null } });
  });
});
