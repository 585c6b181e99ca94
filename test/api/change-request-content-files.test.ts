import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { fails, ok, raw } from '../helpers/api';

/**
 * insert_files with a `url`: the server fetches through sync-server/outbound,
 * here from a local HTTP server on 127.0.0.1 that FOLIO_OUTBOUND_ALLOW
 * allows; a redirect to 127.0.0.2 (not allowed) refuses the whole batch.
 */
let t: TestServer;
let source: http.Server;
let base: string;
let spaceId: string;
const internalHits: string[] = [];
let internal: http.Server;
let internalPort: number;
/** Paths of the source server that answer with a given Content-Type. */
const SERVED: Record<string, string> = {
  '/style.css': 'text/css; charset=utf-8',
  '/odd-type': 'not a media type',
};

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    internalHits.push(req.url ?? '');
    res.end('secret');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.2', r));
  internalPort = (internal.address() as AddressInfo).port;
  source = http.createServer((req, res) => {
    const served = SERVED[req.url ?? ''];
    if (req.url === '/to-internal') res.writeHead(302, { location: `http://127.0.0.2:${internalPort}/` }).end();
    else if (served) res.writeHead(200, { 'content-type': served }).end(`served as ${served}`);
    else if (req.url?.startsWith('/numbered/')) res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url);
    else res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  const orgId = (await t.client.orgs.createOrganization({ title: 'Files Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
});
afterAll(async () => {
  await t?.close();
  for (const s of [source, internal]) {
    s?.closeAllConnections();
    await new Promise((r) => s?.close(r));
  }
});

describe('insert_files from a URL', () => {
  it('fetches an allowed URL and links the file from a page of the same batch', async () => {
    const crId = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
    const res = (await ok(
      'updateChangeRequestContent',
      t.client.spaces.updateChangeRequestContent(
        spaceId,
        crId,
        {
          changes: [
            { operation: 'insert_files', files: [{ ref: 'logo.svg', name: 'logo.svg', url: `${base}/logo.svg` }] },
            { operation: 'insert_page', title: 'Brand', document: { markdown: '![Logo](./logo.svg)\n' } },
          ],
        },
        { compat: false },
      ),
    )) as ChangeRequestContentUpdate;
    const file = res.insertedFiles![0]!;
    expect(file).toMatchObject({ name: 'logo.svg', contentType: 'image/svg+xml' });
    expect(await (await fetch(file.downloadURL)).text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const page = (res.changes[0] as { page: { id: string } }).page.id;
    const markdown = await t.server.ctx.hub.withDoc(crContentDoc(crId), (d) => new ContentDoc(d).getMarkdown(page));
    expect(markdown).toBe(`![Logo](/files/${file.id})\n`);
  });

  it('refuses the batch when the URL redirects to an address the allow-list does not name', async () => {
    const crId = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
    const message = await fails(
      t.client.spaces.updateChangeRequestContent(spaceId, crId, {
        changes: [
          { operation: 'insert_page', title: 'Before', document: { markdown: 'x\n' } },
          { operation: 'insert_files', files: [{ name: 'x.svg', url: `${base}/to-internal` }] },
        ],
      }),
      400,
    );
    expect(message).toMatch(/changes\[1\]\.files\[0\]\.url: .*127\.0\.0\.2.*loopback/);
    expect(internalHits).toEqual([]);
    const titles = await t.server.ctx.hub.withDoc(crContentDoc(crId), (d) => {
      const c = new ContentDoc(d);
      return c.listPageIds().map((id) => c.getPage(id)!.title);
    });
    expect(titles).not.toContain('Before');
  });
});

/** Every file under the data dir's blob store (stored blobs and anything staged in `incoming/`). */
async function blobFiles(): Promise<string[]> {
  const root = join(t.server.ctx.config.dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}

async function ownerRows(): Promise<number> {
  const [row] = await t.server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM blob_owners');
  return row!.n;
}

async function newChangeRequest(): Promise<string> {
  return (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
}

async function pageTitles(crId: string): Promise<string[]> {
  return t.server.ctx.hub.withDoc(crContentDoc(crId), (d) => {
    const c = new ContentDoc(d);
    return c.listPageIds().map((id) => c.getPage(id)!.title);
  });
}

async function fileCount(crId: string): Promise<number> {
  return t.server.ctx.hub.withDoc(crContentDoc(crId), (d) => new ContentDoc(d).listFiles().length);
}

/** Posts a batch of one insert_files change (raw: the client would not send every value tried here). */
async function insertFiles(crId: string, files: Record<string, unknown>[], compat = false) {
  return raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=${compat}`, {
    token: t.adminToken,
    body: { changes: [{ operation: 'insert_files', files }] },
  });
}

describe('a refused batch', () => {
  it('stores no file: 180 fetched files and an invalid 10th change leave no blob and no ownership row', async () => {
    const crId = await newChangeRequest();
    const blobsBefore = await blobFiles();
    const ownersBefore = await ownerRows();
    const fetched = Array.from({ length: 9 }, (_, c) => ({
      operation: 'insert_files' as const,
      files: Array.from({ length: 20 }, (_, f) => ({ name: `f${c}-${f}.txt`, url: `${base}/numbered/${c}-${f}` })),
    }));
    const message = await fails(
      t.client.spaces.updateChangeRequestContent(spaceId, crId, {
        changes: [...fetched, { operation: 'update_page', page: 'no-such-page', title: 'Nope' }],
      }),
      404,
    );
    expect(message).toMatch(/changes\[9\]/);
    expect(await blobFiles()).toEqual(blobsBefore);
    expect(await ownerRows()).toBe(ownersBefore);
    expect(await fileCount(crId)).toBe(0);
  });

  it('that applies stores its files, owned by the organization', async () => {
    const crId = await newChangeRequest();
    const blobsBefore = (await blobFiles()).length;
    const res = await insertFiles(crId, [{ name: 'kept.txt', url: `${base}/numbered/kept` }]);
    expect(res.status).toBe(200);
    expect(await blobFiles()).toHaveLength(blobsBefore + 1);
    const file = (res.body as ChangeRequestContentUpdate).insertedFiles![0]!;
    expect(await (await fetch(file.downloadURL)).text()).toBe('/numbered/kept');
  });
});

describe('insert_files contentType', () => {
  it('accepts a media type with parameters, stores it without them, and serves every accepted value', async () => {
    const crId = await newChangeRequest();
    const values = [
      'text/css;charset=utf-8',
      'image/PNG',
      'application/vnd.api+json ; charset="utf-8" ; q=1',
      'text/plain',
    ];
    const res = await insertFiles(
      crId,
      values.map((contentType, i) => ({
        name: `v${i}.bin`,
        contentType,
        base64: Buffer.from(`value ${i}`).toString('base64'),
      })),
    );
    expect(res.status).toBe(200);
    const files = (res.body as ChangeRequestContentUpdate).insertedFiles!;
    expect(files.map((f) => f.contentType)).toEqual([
      'text/css',
      'image/PNG',
      'application/vnd.api+json',
      'text/plain',
    ]);
    for (const [i, f] of files.entries()) {
      const download = await fetch(f.downloadURL);
      expect(download.status, f.contentType).toBe(200);
      expect(await download.text()).toBe(`value ${i}`);
    }
  });

  it('keeps the type a fetched file is served as only when it is a media type, without its parameters', async () => {
    const crId = await newChangeRequest();
    const res = await insertFiles(crId, [
      { name: 'style.css', url: `${base}/style.css` },
      { name: 'odd', url: `${base}/odd-type` },
    ]);
    expect(res.status).toBe(200);
    const files = (res.body as ChangeRequestContentUpdate).insertedFiles!;
    expect(files.map((f) => f.contentType)).toEqual(['text/css', 'application/octet-stream']);
    for (const f of files) expect((await fetch(f.downloadURL)).status).toBe(200);
  });

  it.each([
    ['a CR/LF', 'text/plain\r\nX-Injected: 1', /contentType: must not contain control characters/],
    ['a trailing LF', 'text/plain\n', /contentType: must not contain control characters/],
    ['no subtype', 'text', /contentType: must be a media type/],
    ['trailing words', 'text/plain and more', /contentType: must be a media type/],
    ['an empty parameter', 'text/plain;', /contentType: must be a media type/],
    ['a parameter without value', 'text/plain; charset', /contentType: must be a media type/],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_what, contentType, pattern) => {
    const crId = await newChangeRequest();
    const blobsBefore = await blobFiles();
    const ownersBefore = await ownerRows();
    const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
      token: t.adminToken,
      body: {
        changes: [
          { operation: 'insert_page', title: 'Before', document: { markdown: 'x\n' } },
          {
            operation: 'insert_files',
            files: [
              { name: 'ok.txt', contentType: 'text/plain', base64: 'b2s=' },
              { name: 'bad.txt', contentType, base64: 'YmFk' },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(400);
    const message = (res.body as { error: { code: number; message: string } }).error.message;
    expect((res.body as { error: { code: number } }).error.code).toBe(400);
    expect(message).toMatch(/^body\.changes\[1\]\.files\[1\]\.contentType: /);
    expect(message).toMatch(pattern);
    expect(await blobFiles()).toEqual(blobsBefore);
    expect(await ownerRows()).toBe(ownersBefore);
    expect(await pageTitles(crId)).not.toContain('Before');
    expect(await fileCount(crId)).toBe(0);
  });
});

describe('insert_files name', () => {
  it.each([
    ['..', /name: must not be "\." or "\.\."/],
    ['.', /name: must not be "\." or "\.\."/],
    ['a/b.txt', /name: must not contain \/ or \\/],
    ['../etc', /name: must not contain \/ or \\/],
    ['a\\b.txt', /name: must not contain \/ or \\/],
    ['line\nbreak.txt', /name: must not contain control characters/],
  ])('refuses %j with a 400 naming the field, and writes nothing', async (name, pattern) => {
    const crId = await newChangeRequest();
    const blobsBefore = await blobFiles();
    const ownersBefore = await ownerRows();
    const res = await insertFiles(crId, [
      { name: 'fine.txt', contentType: 'text/plain', base64: 'ZmluZQ==' },
      { name, contentType: 'text/plain', base64: 'bmFtZQ==' },
    ]);
    expect(res.status).toBe(400);
    const message = (res.body as { error: { message: string } }).error.message;
    expect(message).toMatch(/^body\.changes\[0\]\.files\[1\]\.name: /);
    expect(message).toMatch(pattern);
    expect(await blobFiles()).toEqual(blobsBefore);
    expect(await ownerRows()).toBe(ownersBefore);
    expect(await fileCount(crId)).toBe(0);
  });

  it('gives names with dots, spaces and URL characters a download URL that keeps the name', async () => {
    const crId = await newChangeRequest();
    const names = ['...', '..a', 'a b?#%.txt', 'x'.repeat(251) + '.txt'];
    const res = await insertFiles(
      crId,
      names.map((name) => ({ name, contentType: 'text/plain', base64: Buffer.from(name).toString('base64') })),
    );
    expect(res.status).toBe(200);
    for (const [i, f] of (res.body as ChangeRequestContentUpdate).insertedFiles!.entries()) {
      const url = new URL(f.downloadURL);
      expect(decodeURIComponent(url.pathname.split('/').pop()!)).toBe(names[i]);
      const download = await fetch(url);
      expect(download.status).toBe(200);
      expect(await download.text()).toBe(names[i]);
    }
  });
});

describe('files stored before names and types were checked', () => {
  it('still get a download link that works', async () => {
    const crId = await newChangeRequest();
    const res = await insertFiles(crId, [{ name: 'old.txt', contentType: 'text/plain', base64: 'b2xk' }]);
    const sha256 = createHash('sha256').update('old').digest('hex');
    expect(res.status).toBe(200);
    for (const [name, contentType] of [
      ['..', 'text/css;charset=utf-8'],
      ['a/b', 'text/plain\r\n'],
      ['.', 'not a type'],
    ]) {
      const url = new URL(
        t.server.ctx.storage.downloadUrl({ sha256, name: name!, contentType: contentType! }, spaceId),
      );
      expect(url.pathname).not.toMatch(/\/\.\.?$/);
      const download = await fetch(url);
      expect(download.status, `${name} ${contentType}`).toBe(200);
      expect(await download.text()).toBe('old');
    }
  });
});

describe('text the JSON body cannot carry', () => {
  it.each([
    ['a NUL in a contentType', { name: 'a.txt', contentType: 'text/pl\u0000ain', base64: 'YQ==' }, 'contentType'],
    ['a lone surrogate in a name', { name: '\ud800.txt', contentType: 'text/plain', base64: 'YQ==' }, 'name'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_what, file, field) => {
    const crId = await newChangeRequest();
    const blobsBefore = await blobFiles();
    const res = await insertFiles(crId, [file]);
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toContain(`changes/0/files/0/${field}`);
    expect(await blobFiles()).toEqual(blobsBefore);
    expect(await fileCount(crId)).toBe(0);
  });
});
