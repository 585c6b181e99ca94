import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { fails, ok } from '../helpers/api';

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

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    internalHits.push(req.url ?? '');
    res.end('secret');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.2', r));
  internalPort = (internal.address() as AddressInfo).port;
  source = http.createServer((req, res) => {
    if (req.url === '/to-internal') res.writeHead(302, { location: `http://127.0.0.2:${internalPort}/` }).end();
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
