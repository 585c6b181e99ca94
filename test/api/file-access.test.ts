import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { expectError, newUser, raw } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Who can read uploaded bytes, and how they are served. Blobs are stored once
 * per content, so a sha256 must not be a key to them: a download link only
 * serves bytes the space's organization owns (uploaded there, or brought along
 * by a transfer). Links expire. Downloads never act as pages of the API's
 * origin (attachment, nosniff, sandbox CSP).
 */

let t: TestServer;
let victimOrg: string;
let victimSpace: string;
let attackerOrg: string;
let attackerSpace: string;
let attackerToken: string;
const SECRET = Buffer.from('<html><script>alert(document.domain)</script>the victim organization’s secret</html>');
let secretSha: string;

/** Uploads `bytes` into an organization as `token`; returns the digest. */
async function upload(token: string, orgId: string, bytes: Buffer, type: string, name: string): Promise<string> {
  const slot = (
    await t.clientFor(token).orgs.generateStorageUploadUrl(orgId, {
      file: { name, type, size: bytes.length },
      kind: 'organization_file' as never,
    })
  ).data;
  const res = await fetch(slot.url, { method: 'PUT', body: new Uint8Array(bytes) });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { sha256: string }).sha256;
}

/** Writes a files entry into a space's content (a server-side write; a socket write lands in the same map). */
async function putFile(spaceId: string, id: string, file: { name: string; contentType: string; sha256: string }) {
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) =>
    new ContentDoc(doc).putFile(id, { ...file, size: SECRET.length }),
  );
  await t.server.ctx.snapshots.revise(spaceId);
}

/** The downloadURL of a file as the REST API presents it to `token`. */
async function downloadUrlOf(spaceId: string, fileId: string, token = t.adminToken): Promise<string> {
  const res = await raw(t, 'GET', `/v1/spaces/${spaceId}/content/files/${fileId}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { downloadURL: string }).downloadURL;
}

beforeAll(async () => {
  t = await startTestServer();
  victimOrg = (await t.client.orgs.createOrganization({ title: 'Victim' })).data.id;
  victimSpace = (await t.client.orgs.createSpace(victimOrg, { title: 'Private' })).data.id;
  secretSha = await upload(t.adminToken, victimOrg, SECRET, 'text/plain', 'secret.txt');
  expect(secretSha).toBe(createHash('sha256').update(SECRET).digest('hex'));
  await putFile(victimSpace, 'victimFile', { name: 'secret.txt', contentType: 'text/plain', sha256: secretSha });

  // Someone with no access to the victim organization, admin of their own.
  attackerToken = (await newUser(t, 'Attacker')).token;
  attackerOrg = (await t.clientFor(attackerToken).orgs.createOrganization({ title: 'Attacker' })).data.id;
  attackerSpace = (await t.clientFor(attackerToken).orgs.createSpace(attackerOrg, { title: 'Mine' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

describe('file access across organizations', () => {
  it('serves a file to the space of the organization that uploaded it', async () => {
    const res = await fetch(await downloadUrlOf(victimSpace, 'victimFile'));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(SECRET)).toBe(true);
  });

  it("gives nothing for another organization's digest written into one's own space", async () => {
    expectError(await raw(t, 'GET', `/v1/spaces/${victimSpace}`, { token: attackerToken }), 404);
    // The digest leaked somehow; the attacker writes it into their own space, as HTML.
    await putFile(attackerSpace, 'stolen', { name: 'stolen.html', contentType: 'text/html', sha256: secretSha });
    const url = await downloadUrlOf(attackerSpace, 'stolen', attackerToken);
    const res = await fetch(url);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret');
  });

  it("refuses a link whose space was swapped for another organization's", async () => {
    const url = new URL(await downloadUrlOf(attackerSpace, 'stolen', attackerToken));
    url.searchParams.set('space', victimSpace);
    expectError(await raw(t, 'GET', url.pathname + url.search), 403);
  });

  it('keeps the files of a space transferred to another organization readable', async () => {
    const movedSpace = (await t.client.orgs.createSpace(victimOrg, { title: 'Moving' })).data.id;
    const bytes = Buffer.from('travels with its space');
    const sha256 = await upload(t.adminToken, victimOrg, bytes, 'text/plain', 'travel.txt');
    await putFile(movedSpace, 'travel', { name: 'travel.txt', contentType: 'text/plain', sha256 });
    const targetOrg = (await t.client.orgs.createOrganization({ title: 'Target' })).data.id;
    const moved = await raw(t, 'POST', `/v1/spaces/${movedSpace}/transfer`, {
      token: t.adminToken,
      body: { organization: targetOrg },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const res = await fetch(await downloadUrlOf(movedSpace, 'travel'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('travels with its space');
    // The target organization received that blob only, not the rest of the source's.
    const owned = await t.server.ctx.db.query<{ sha256: string }>(
      'SELECT sha256 FROM blob_owners WHERE organization_id = $1',
      [targetOrg],
    );
    expect(owned.map((r) => r.sha256)).toEqual([sha256]);
  });

  it('stops serving the files of a deleted space', async () => {
    const doomed = (await t.client.orgs.createSpace(victimOrg, { title: 'Doomed' })).data.id;
    await putFile(doomed, 'f', { name: 'secret.txt', contentType: 'text/plain', sha256: secretSha });
    const url = await downloadUrlOf(doomed, 'f');
    expect((await fetch(url)).status).toBe(200);
    await t.client.spaces.deleteSpaceById(doomed);
    expect((await fetch(url)).status).toBe(404);
  });
});

describe('download links expire', () => {
  it('hands out links valid for 7 to 8 days, and fresh ones once a day passed', async () => {
    const first = await downloadUrlOf(victimSpace, 'victimFile');
    const expires = Number(new URL(first).searchParams.get('expires'));
    const now = t.clock.now().getTime() / 1000;
    expect(expires - now).toBeGreaterThanOrEqual(7 * 86400);
    expect(expires - now).toBeLessThanOrEqual(8 * 86400);
    // Stable within a day, so cached revision JSON stays the same bytes.
    expect(await downloadUrlOf(victimSpace, 'victimFile')).toBe(first);
    const revision = await raw(t, 'GET', `/v1/spaces/${victimSpace}/content`, { token: t.adminToken });
    const etag = revision.headers.get('etag')!;
    expect((revision.body as { files: { downloadURL: string }[] }).files[0]!.downloadURL).toBe(first);

    t.clock.advance(8 * 86400 * 1000 + 1000);
    const expired = await fetch(first);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    // The cached revision JSON was not kept past its links: a new link, a new ETag, and it works.
    const again = await raw(t, 'GET', `/v1/spaces/${victimSpace}/content`, {
      token: t.adminToken,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(200);
    const fresh = (again.body as { files: { downloadURL: string }[] }).files[0]!.downloadURL;
    expect(fresh).not.toBe(first);
    expect((await fetch(fresh)).status).toBe(200);
  });
});

describe('downloads never act as pages of the API origin', () => {
  const serve = async (name: string, contentType: string, bytes = Buffer.from('<svg onload="alert(1)"/>')) => {
    const spaceId = (await t.client.orgs.createSpace(victimOrg, { title: name })).data.id;
    const sha256 = await upload(t.adminToken, victimOrg, bytes, contentType, name);
    await putFile(spaceId, 'f', { name, contentType, sha256 });
    const res = await fetch(await downloadUrlOf(spaceId, 'f'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    return res.headers;
  };

  it('serves scriptable types as opaque attachments', async () => {
    for (const [name, type] of [
      ['drawing.svg', 'image/svg+xml'],
      ['page.html', 'text/html'],
      ['page.xhtml', 'application/xhtml+xml'],
      ['data.xml', 'text/xml'],
      ['app.js', 'text/javascript'],
      ['style.css', 'text/css'],
    ] as const) {
      const headers = await serve(name, type);
      expect(headers.get('content-disposition'), type).toMatch(/^attachment; filename\*=UTF-8''/);
      expect(headers.get('content-type'), type).toBe('application/octet-stream');
    }
  });

  it('keeps the type of other attachments and shows images, PDF and plain text inline', async () => {
    const zip = await serve('archive.zip', 'application/zip');
    expect(zip.get('content-disposition')).toMatch(/^attachment;/);
    expect(zip.get('content-type')).toBe('application/zip');
    const png = await serve('pixel.png', 'image/png');
    expect(png.get('content-disposition')).toBe("inline; filename*=UTF-8''pixel.png");
    expect(png.get('content-type')).toBe('image/png');
    const pdf = await serve('doc.pdf', 'application/pdf');
    expect(pdf.get('content-disposition')).toMatch(/^inline;/);
    const text = await serve("it's (1).txt", 'text/plain');
    expect(text.get('content-disposition')).toBe("inline; filename*=UTF-8''it%27s%20%281%29.txt");
    expect(text.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('lets nobody without edit rights upload', async () => {
    const reader = await newMember(t, victimOrg, 'read');
    expectError(
      await raw(t, 'POST', `/v1/orgs/${victimOrg}/storage/upload`, {
        token: reader.token,
        body: { file: { name: 'a.txt', type: 'text/plain', size: 1 }, kind: 'organization_file' },
      }),
      403,
    );
  });
});
