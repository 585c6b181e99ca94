import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { raw } from '../helpers/api';
import { upgradeStatus } from '../helpers/raw-sockets';
import { syncUrl } from '../helpers/sync-clients';

/**
 * Credentials in URLs never reach the logs: the server's own pino stream is
 * captured at debug level (reads are logged at debug, writes at info) while
 * signed uploads and downloads, share links, visitor tokens and `?token=`
 * requests go through (and still work); the request log lines show the URLs
 * with those values replaced.
 */
const lines: string[] = [];
let t: TestServer;
let orgId: string;
let spaceId: string;

beforeAll(async () => {
  t = await startTestServer(
    {},
    { logger: { level: 'debug' }, logStream: { write: (line: string) => lines.push(line) } },
  );
  orgId = (await t.client.orgs.createOrganization({ title: 'Log Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Logged' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
}
const parsed = () => lines.map((l) => JSON.parse(l) as LogLine);

/** The request URLs the log lines recorded. */
const loggedUrls = () =>
  parsed()
    .map((l) => l.req?.url)
    .filter((u): u is string => !!u);

/** pino's numeric levels. */
const DEBUG = 20;
const INFO = 30;

describe('request log lines', () => {
  it('redact upload and download signatures, share keys, visitor tokens and token parameters', async () => {
    const secrets: string[] = [];

    // A signed upload: the signature in its URL authorizes the PUT.
    const slot = (
      await t.client.orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'pixel.png', type: 'image/png', size: PNG.length },
        kind: 'organization_file' as never,
      })
    ).data as { url: string };
    secrets.push(new URL(slot.url).searchParams.get('signature')!);
    const put = await fetch(slot.url, {
      method: 'PUT',
      body: new Uint8Array(PNG),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    const { sha256 } = (await put.json()) as { sha256: string };

    // A signed download, from the space's content.
    await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
      const c = new ContentDoc(doc);
      c.putFile('pixel', { name: 'pixel.png', contentType: 'image/png', size: PNG.length, sha256 });
      c.createPage({ title: 'Home', markdown: 'Hello.\n' });
    });
    await t.server.ctx.snapshots.revise(spaceId);
    const files = (await raw(t, 'GET', `/v1/spaces/${spaceId}/content/files`, { token: t.adminToken })).body as {
      items: { downloadURL: string }[];
    };
    const downloadURL = files.items[0]!.downloadURL;
    secrets.push(new URL(downloadURL).searchParams.get('signature')!);
    expect((await fetch(downloadURL)).status).toBe(200);

    // A share link of a published site, and a visitor token.
    const siteId = (
      await t.client.orgs.createSite(orgId, {
        title: 'Shared',
        visibility: SiteVisibility.ShareLink,
        spaces: [spaceId],
      })
    ).data.id;
    await t.client.orgs.publishSite(orgId, siteId);
    const published = (await t.client.orgs.getSiteById(orgId, siteId)).data.urls.published!;
    secrets.push(new URL(published).searchParams.get('share')!);
    expect((await fetch(published)).status).toBe(200);
    const visitorToken = 'eyJhbGciOiJIUzI1NiJ9.eyJ2aXNpdG9yIjoic2VjcmV0In0.visitor-signature-0123456789';
    secrets.push(visitorToken);
    await fetch(`${t.url}/sites/${siteId}/?jwt_token=${visitorToken}`);

    // Any parameter named like a token, on the API and on the sync endpoint.
    const apiToken = 'folio_query-string-token-should-never-be-logged-42';
    secrets.push(apiToken);
    await raw(t, 'GET', `/v1/orgs?token=${apiToken}&access_token=${apiToken}`);
    expect((await upgradeStatus(syncUrl(t.url, spaceId, apiToken))).status).toBe(401);

    const log = lines.join('');
    for (const secret of secrets) expect(log, `a secret reached the logs: ${secret}`).not.toContain(secret);
    // The lines are there, with the values replaced (so the check above is not vacuous).
    const urls = loggedUrls();
    for (const name of ['signature', 'share', 'jwt_token', 'token', 'access_token'])
      expect(
        urls.some((u) => u.includes(`${name}=[REDACTED]`)),
        `${name}=[REDACTED] in ${urls.join(' ')}`,
      ).toBe(true);
    // Other parameters are kept as sent.
    expect(urls.some((u) => /[?&]type=image%2Fpng/.test(u))).toBe(true);
  });

  it('logs reads at debug and writes at info, so a hot read writes no line at the default level', async () => {
    expect((await raw(t, 'GET', `/v1/spaces/${spaceId}`, { token: t.adminToken })).status).toBe(200);
    const incoming = parsed().filter((l) => l.msg === 'incoming request');
    const levelsOf = (method: string) => new Set(incoming.filter((l) => l.req?.method === method).map((l) => l.level));
    // beforeAll created an organization and a space (POST); the tests read (GET).
    expect(levelsOf('POST')).toEqual(new Set([INFO]));
    expect(levelsOf('GET')).toEqual(new Set([DEBUG]));
    const completed = parsed().filter((l) => l.msg === 'request completed');
    expect(new Set(completed.map((l) => l.level))).toEqual(new Set([DEBUG, INFO]));
  });

  it("binds every line of a request to its id (the caller's x-request-id when it sent a safe one)", async () => {
    const res = await raw(t, 'GET', `/v1/spaces/${spaceId}`, {
      token: t.adminToken,
      headers: { 'x-request-id': 'trace-log-1' },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-log-1');
    const ofRequest = parsed().filter((l) => l.reqId === 'trace-log-1');
    expect(ofRequest.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    // Fastify's own ids are bound too.
    const created = await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: 'Ids' } });
    const id = created.headers.get('x-request-id');
    expect(id).toMatch(/^req-/);
    expect(
      parsed()
        .filter((l) => l.reqId === id)
        .map((l) => l.msg),
    ).toEqual(['incoming request', 'request completed']);
  });
});
