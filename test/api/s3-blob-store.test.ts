import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../sync-server/config';
import { collectUnusedBlobs } from '../../sync-server/jobs/collect-unused-blobs';
import { recordBlobOwners } from '../../sync-server/store/blob-owners';
import { loadUploadSlot } from '../../sync-server/store/uploads';
import { raw } from '../helpers/api';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The blob store on S3-compatible object storage (FOLIO_S3_BUCKET), against a
 * real S3-protocol server on 127.0.0.1 (s3rver in its own process): uploads
 * are streamed into the bucket with multipart upload, downloads come from it,
 * the data folder holds no bytes, the collector deletes unused objects, and a
 * bucket that stops mid-upload gives a clear 503 with nothing recorded.
 */
let s3: S3Server;
let t: TestServer;
let orgId: string;
let spaceId: string;

const MB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  // In-process server: the SDK reads its credentials from this process's environment, as it would in production.
  Object.assign(process.env, s3.credentials);
  t = await startTestServer(s3.env('folio files/'));
  orgId = (await t.client.orgs.createOrganization({ title: 'S3 Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function slotUrl(size: number): Promise<{ url: string; key: string }> {
  const slot = await t.client.orgs.generateStorageUploadUrl(orgId, {
    file: { name: 'data.bin', type: 'application/octet-stream', size },
    kind: 'organization_file' as never,
  });
  return slot.data;
}

const put = (url: string, body: BodyInit) =>
  fetch(url, {
    method: 'PUT',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    duplex: 'half',
  } as RequestInit);

function download(sha256: string): Promise<Response> {
  return fetch(
    t.server.ctx.storage.downloadUrl({ sha256, name: 'data.bin', contentType: 'application/octet-stream' }, spaceId),
  );
}

/** A request body the test feeds chunk by chunk. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, push: (bytes: Buffer) => controller.enqueue(new Uint8Array(bytes)), end: () => controller.close() };
}

/** Every file under the server's `<dataDir>/blobs` (there should be none: the bytes are in the bucket). */
async function filesInDataFolder(): Promise<string[]> {
  return (await readdir(join(t.server.ctx.config.dataDir, 'blobs'), { recursive: true }).catch(() => [])) as string[];
}

describe('blobs in an S3-compatible bucket', () => {
  it('streams an upload into the bucket (multipart) and serves it back from there', async () => {
    // 12 MiB: three parts of a multipart upload.
    const bytes = randomBytes(12 * MB);
    const { url } = await slotUrl(bytes.length);
    const res = await put(url, new Uint8Array(bytes));
    expect(res.status).toBe(200);
    const uploaded = (await res.json()) as { sha256: string; size: number };
    expect(uploaded).toMatchObject({ sha256: sha(bytes), size: bytes.length });
    expect(t.server.ctx.storage.blobs.kind).toBe('s3');
    expect(await t.server.ctx.storage.blobs.size(uploaded.sha256)).toBe(bytes.length);
    expect(await filesInDataFolder()).toEqual([]);
    const got = await download(uploaded.sha256);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-length')).toBe(String(bytes.length));
    expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(uploaded.sha256);
  });

  it('refuses a body of another size and leaves nothing under any digest', async () => {
    const { url, key } = await slotUrl(10);
    const res = await fetch(url, {
      method: 'PUT',
      body: new ReadableStream({
        start(c) {
          c.enqueue(new Uint8Array(11));
          c.close();
        },
      }),
      headers: { 'content-type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await loadUploadSlot(t.server.ctx.db, key))?.sha256).toBeNull();
    expect(await t.server.ctx.storage.blobs.has(sha(Buffer.alloc(11)))).toBe(false);
    expect(await t.server.ctx.storage.blobs.has(sha(Buffer.alloc(10)))).toBe(false);
  });

  it('lists stored objects for the collector, which deletes the unused ones after the grace period', async () => {
    const { blobs } = t.server.ctx.storage;
    const unused = Buffer.from(`unused ${Date.now()}`);
    const { sha256 } = await blobs.putStream(Readable.from([unused]), unused.length);
    await recordBlobOwners(t.server.ctx.db, orgId, [sha256]);
    const listed: string[] = [];
    for await (const b of blobs.stored()) listed.push(b.sha256);
    expect(listed).toContain(sha256);
    // Within the grace period it stays.
    await collectUnusedBlobs({ db: t.server.ctx.db, clock: t.clock, storage: t.server.ctx.storage });
    expect(await blobs.has(sha256)).toBe(true);
    t.clock.advance(DAY + 60_000);
    const collected = await collectUnusedBlobs({ db: t.server.ctx.db, clock: t.clock, storage: t.server.ctx.storage });
    expect(collected).toBeGreaterThanOrEqual(1);
    expect(await blobs.has(sha256)).toBe(false);
    // An uploaded file (its slot names it) is kept.
    const kept = [];
    for await (const b of blobs.stored()) kept.push(b.sha256);
    expect(kept.length).toBeGreaterThanOrEqual(1);
  });

  it("stores a content batch's files in the bucket and serves them at their downloadURL", async () => {
    const bytes = randomBytes(3000);
    const crId = (await t.client.spaces.createChangeRequest(spaceId, {})).data.id;
    const res = await t.client.spaces.updateChangeRequestContent(
      spaceId,
      crId,
      {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'b.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }],
          },
        ],
      } as never,
      { compat: false },
    );
    const file = (res.data as unknown as { insertedFiles: { downloadURL: string }[] }).insertedFiles[0]!;
    expect(await t.server.ctx.storage.blobs.has(sha(bytes))).toBe(true);
    const got = await fetch(file.downloadURL);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await filesInDataFolder()).toEqual([]);
  });

  it('reports the store in /readyz', async () => {
    expect((await raw(t, 'GET', '/readyz')).body).toEqual({
      status: 'ready',
      blobs: { store: 's3', state: 'reachable' },
    });
  });
});

describe('the bucket unreachable', () => {
  it('a bucket stopped mid-upload: a clear 503, no file recorded, 503 on downloads, then uploads work again', async () => {
    const first = randomBytes(MB);
    const { url: firstUrl } = await slotUrl(first.length);
    const { sha256: stored } = (await (await put(firstUrl, new Uint8Array(first))).json()) as { sha256: string };

    const bytes = randomBytes(8 * MB);
    const { url, key } = await slotUrl(bytes.length);
    const body = controlledBody();
    const response = put(url, body.stream);
    body.push(bytes.subarray(0, 6 * MB));
    await s3.stop();
    body.push(bytes.subarray(6 * MB));
    body.end();
    const res = await response;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/storage.*unavailable/i);
    expect((await loadUploadSlot(t.server.ctx.db, key))?.sha256).toBeNull();

    const down = await download(stored);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    const ready = await raw(t, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ blobs: { store: 's3', state: 'unreachable' } });

    // A body longer than declared, with the bucket down: refused at once, not left hanging.
    const { url: shortUrl } = await slotUrl(10);
    expect([400, 503]).toContain((await put(shortUrl, new Uint8Array(11))).status);

    await s3.restart();
    // The same slot was not used up: its upload works now, and the bytes are whole.
    const again = await put(url, new Uint8Array(bytes));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { sha256: string }).sha256).toBe(sha(bytes));
    const back = await download(sha(bytes));
    expect(back.status).toBe(200);
    expect(sha(Buffer.from(await back.arrayBuffer()))).toBe(sha(bytes));
    expect((await raw(t, 'GET', '/readyz')).body).toMatchObject({ blobs: { state: 'reachable' } });
  }, 60_000);
});

describe('S3 settings', () => {
  it('are checked at start', () => {
    const base = { FOLIO_DATA_DIR: '/tmp/x' };
    expect(() => loadConfig([], { ...base, FOLIO_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(ConfigError);
    expect(() => loadConfig([], { ...base, FOLIO_S3_BUCKET: 'docs', FOLIO_S3_ENDPOINT: 'ftp://x' })).toThrow(
      /FOLIO_S3_ENDPOINT/,
    );
    expect(() => loadConfig([], { ...base, FOLIO_S3_BUCKET: 'b!' })).toThrow(/FOLIO_S3_BUCKET/);
    expect(() => loadConfig([], { ...base, FOLIO_S3_BUCKET: 'docs', FOLIO_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      /FOLIO_S3_FORCE_PATH_STYLE/,
    );
    const config = loadConfig([], { ...base, FOLIO_S3_BUCKET: 'docs', FOLIO_S3_PREFIX: '/folio' });
    expect(config).toMatchObject({ s3Bucket: 'docs', s3Prefix: 'folio/', s3ForcePathStyle: false });
  });
});
