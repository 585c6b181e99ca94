import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/**
 * Uploads are streamed to disk while they arrive (never held in memory: four
 * 100 MB uploads used to cost 600 MB of RSS), hashed on the way, checked
 * against the slot's declared size, and renamed into the blob store only when
 * complete. `npm run bench -- upload` measures the memory.
 */

let t: TestServer;
let orgId: string;
let incoming: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Uploads' })).data.id;
  incoming = join(t.server.ctx.config.dataDir, 'blobs', 'incoming');
});
afterAll(async () => {
  await t?.close();
});

async function slotUrl(size: number): Promise<string> {
  const slot = await t.client.orgs.generateStorageUploadUrl(orgId, {
    file: { name: 'big.bin', type: 'application/octet-stream', size },
    kind: 'organization_file' as never,
  });
  return slot.data.url;
}

/** A request body the test feeds chunk by chunk (sent chunked, without Content-Length). */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, push: (bytes: Buffer) => controller.enqueue(new Uint8Array(bytes)), end: () => controller.close() };
}

/** Bytes written so far to partial uploads. */
async function bytesInFlight(): Promise<number> {
  const names = await readdir(incoming).catch(() => [] as string[]);
  let total = 0;
  for (const n of names) total += (await stat(join(incoming, n)).catch(() => ({ size: 0 }))).size;
  return total;
}

/** Sends only the request head with this Content-Length and returns the status the server answers with. */
function headOnly(url: string, contentLength: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(contentLength) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

const MB = 1024 * 1024;

describe('streamed uploads', () => {
  it('writes the bytes to disk as they arrive, then stores the complete file', async () => {
    const parts = [Buffer.alloc(2 * MB, 1), Buffer.alloc(2 * MB, 2)];
    const body = controlledBody();
    const response = fetch(await slotUrl(4 * MB), {
      method: 'PUT',
      body: body.stream,
      duplex: 'half',
      headers: { 'content-type': 'application/octet-stream' },
    } as RequestInit);
    body.push(parts[0]!);
    // Half the file is on disk while the other half has not even been sent: nothing waits in memory.
    await waitFor(async () => (await bytesInFlight()) >= 2 * MB, 20_000, 'the first half written to disk');
    body.push(parts[1]!);
    body.end();
    const res = await response;
    expect(res.status).toBe(200);
    const uploaded = (await res.json()) as { sha256: string; size: number };
    expect(uploaded).toMatchObject({
      size: 4 * MB,
      sha256: createHash('sha256').update(Buffer.concat(parts)).digest('hex'),
    });
    expect(await t.server.ctx.storage.blobs.size(uploaded.sha256)).toBe(4 * MB);
    expect(await bytesInFlight()).toBe(0);
  });

  it('cuts off a body longer than declared as soon as it overflows, and stores nothing', async () => {
    const body = controlledBody();
    const response = fetch(await slotUrl(MB), {
      method: 'PUT',
      body: body.stream,
      duplex: 'half',
      headers: { 'content-type': 'application/octet-stream' },
    } as RequestInit);
    const bytes = Buffer.alloc(MB + 1, 7);
    body.push(bytes);
    // The body never ends; the answer comes anyway.
    const res = await response;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/exactly the declared/);
    body.end();
    await waitFor(async () => (await bytesInFlight()) === 0, 10_000, 'the partial file removed');
    const sha = createHash('sha256').update(bytes.subarray(0, MB)).digest('hex');
    expect(await t.server.ctx.storage.blobs.has(sha)).toBe(false);
  });

  it('refuses a Content-Length over the limit, or unlike the declared size, before reading the body', async () => {
    expect(await headOnly(await slotUrl(10), 200 * MB)).toBe(413);
    expect(await headOnly(await slotUrl(10), 11)).toBe(400);
  });

  it('refuses a body shorter than declared', async () => {
    const res = await fetch(await slotUrl(10), { method: 'PUT', body: new Uint8Array(5) });
    expect(res.status).toBe(400);
    expect(await bytesInFlight()).toBe(0);
  });
});
