import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, ok, raw } from '../helpers/api';
import { newMember } from '../helpers/members';

let t: TestServer;
let orgId: string;
beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Files Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function slot(size = PNG.length, type = 'image/png', name = 'pixel.png') {
  return ok(
    'generateStorageUploadURL',
    t.client.orgs.generateStorageUploadUrl(orgId, { file: { name, type, size }, kind: 'organization_file' as never }),
    201,
  );
}

const put = (url: string, bytes: Buffer, type = 'image/png') =>
  fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': type } });

describe('file storage', () => {
  it('hands out a signed upload URL that takes the declared bytes once', async () => {
    const { url, key } = await slot();
    expect(new URL(url).origin).toBe(new URL(t.url).origin);
    const res = await put(url, PNG);
    expect(res.status).toBe(200);
    const uploaded = (await res.json()) as { key: string; sha256: string; size: number; contentType: string };
    expect(uploaded).toMatchObject({
      key,
      size: PNG.length,
      contentType: 'image/png',
      sha256: createHash('sha256').update(PNG).digest('hex'),
    });
    // Single use: a leaked URL cannot replace the bytes.
    expect((await put(url, PNG)).status).toBe(409);
  });

  it('serves stored bytes at a signed, immutable download URL', async () => {
    const { url } = await slot();
    const { sha256 } = (await (await put(url, PNG)).json()) as { sha256: string };
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Pictures' })).data.id;
    const downloadURL = t.server.ctx.storage.downloadUrl(
      { sha256, name: 'pixel.png', contentType: 'image/png' },
      spaceId,
    );
    const res = await fetch(downloadURL);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // The signature covers the content type: serving the bytes as HTML is refused.
    const asHtml = new URL(downloadURL);
    asHtml.searchParams.set('type', 'text/html');
    expectError(await raw(t, 'GET', asHtml.pathname + asHtml.search), 403);
    const unsigned = new URL(downloadURL);
    unsigned.searchParams.set('signature', 'A'.repeat(43));
    expectError(await raw(t, 'GET', unsigned.pathname + unsigned.search), 403);
  });

  it('refuses tampered, expired and wrongly sized uploads', async () => {
    const a = await slot();
    const tampered = new URL(a.url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    expect((await put(tampered.toString(), PNG)).status).toBe(403);
    expect((await put(a.url, Buffer.concat([PNG, PNG]))).status).toBe(400);
    const b = await slot();
    t.clock.advance(2 * 60 * 60 * 1000);
    const expired = await put(b.url, PNG);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('validates the request and needs the edit role', async () => {
    const bad = [
      { file: { name: 'a.png', type: 'image/png', size: 0 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'not a type', size: 10 }, kind: 'organization_file' },
      { file: { name: '../a.png', type: 'image/png', size: 10 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'image/png', size: 10 }, kind: 'something' },
      { file: { name: 'a.png', type: 'image/png', size: 10 ** 12 }, kind: 'organization_file' },
    ];
    for (const body of bad)
      expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/storage/upload`, { token: t.adminToken, body }), 400);
    const reader = await newMember(t, orgId, 'read');
    await fails(
      t.clientFor(reader.token).orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'a', type: 'text/plain', size: 1 },
        kind: 'organization_file' as never,
      }),
      403,
    );
    const stranger = (await t.client.orgs.createOrganization({ title: 'Other' })).data.id;
    const outsider = await newMember(t, stranger, 'admin');
    await fails(
      t.clientFor(outsider.token).orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'a', type: 'text/plain', size: 1 },
        kind: 'organization_file' as never,
      }),
      404,
    );
  });
});
