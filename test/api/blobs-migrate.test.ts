import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer } from '../../sync-server/server';
import { folio } from '../helpers/cli-process';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { gitbookClient, testServerEnv, TestClock } from '../helpers/server';

/**
 * `folio blobs migrate` moves a real data folder's blobs to the bucket while
 * the server keeps serving from the folder; a second run copies only what
 * arrived in between; a server switched to the bucket (with the old folder
 * moved away) then serves every file, matching its hash.
 */
let s3: S3Server;
let dataDir: string;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  // The CLI child and the in-process server read the bucket's settings and credentials from the environment.
  Object.assign(process.env, s3.env('moved/'));
  dataDir = await mkdtemp(join(tmpdir(), 'folio-migrate-'));
}, 60_000);
afterAll(async () => {
  for (const key of Object.keys(s3?.env('moved/') ?? {})) delete process.env[key];
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A server on the persistent PGlite of `dataDir` (so a second start sees the same database). */
async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(loadConfig([], { ...testServerEnv(dataDir), ...env }), { clock: new TestClock() });
}

async function upload(server: RunningServer, orgId: string, bytes: Buffer): Promise<string> {
  const slot = await gitbookClient(server.url).orgs.generateStorageUploadUrl(orgId, {
    file: { name: 'f.bin', type: 'application/octet-stream', size: bytes.length },
    kind: 'organization_file' as never,
  });
  const res = await fetch(slot.data.url, {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sha256: string }).sha256;
}

describe('folio blobs migrate', () => {
  it('copies a live data folder to the bucket, resumably, and every download still matches its hash', async () => {
    const folderServer = await start();
    expect(folderServer.ctx.storage.blobs.kind).toBe('folder');
    const api = gitbookClient(folderServer.url);
    const orgId = (await api.orgs.createOrganization({ title: 'Moving' })).data.id;
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
    const files = [randomBytes(100), randomBytes(7 * 1024 * 1024), Buffer.from('same bytes'), randomBytes(1)];
    const digests: string[] = [];
    for (const f of files.slice(0, 3)) digests.push(await upload(folderServer, orgId, f));

    // While the server runs on the folder.
    const first = await folio(dataDir, 'blobs', 'migrate');
    expect(first.stderr).not.toContain('folio:');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/3 copied, 0 already in the bucket, 0 failed/);

    // Stored meanwhile; then a file whose bytes do not match its name (a damaged disk) is reported, not copied.
    digests.push(await upload(folderServer, orgId, files[3]!));
    const bogus = 'ab'.repeat(32);
    const bogusDir = join(dataDir, 'blobs', 'ab', 'ab');
    await mkdir(bogusDir, { recursive: true });
    await writeFile(join(bogusDir, bogus), 'not what the name says');
    await folderServer.close();

    const second = await folio(dataDir, 'blobs', 'migrate');
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(/1 copied, 3 already in the bucket, 1 failed/);
    expect(second.stdout).toContain(`failed ${bogus}`);
    await rm(bogusDir, { recursive: true });

    // The bucket now serves everything: the old folder is moved away so nothing could come from it.
    await rename(join(dataDir, 'blobs'), join(dataDir, 'blobs.old'));
    const bucketServer = await start(s3.env('moved/'));
    try {
      expect(bucketServer.ctx.storage.blobs.kind).toBe('s3');
      for (const [i, digest] of digests.entries()) {
        const link = bucketServer.ctx.storage.downloadUrl(
          { sha256: digest, name: 'f.bin', contentType: 'application/octet-stream' },
          spaceId,
        );
        const res = await fetch(link);
        expect(res.status).toBe(200);
        const got = Buffer.from(await res.arrayBuffer());
        expect(sha(got)).toBe(digest);
        expect(got.equals(files[i]!)).toBe(true);
      }
    } finally {
      await bucketServer.close();
    }
  }, 120_000);

  it('says what is missing without a bucket', async () => {
    const saved = process.env.FOLIO_S3_BUCKET;
    delete process.env.FOLIO_S3_BUCKET;
    delete process.env.FOLIO_S3_ENDPOINT;
    delete process.env.FOLIO_S3_PREFIX;
    delete process.env.FOLIO_S3_REGION;
    try {
      const res = await folio(dataDir, 'blobs', 'migrate');
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/FOLIO_S3_BUCKET is not set/);
    } finally {
      Object.assign(process.env, s3.env('moved/'), { FOLIO_S3_BUCKET: saved });
    }
  });
});
