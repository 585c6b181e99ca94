import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBlobSoak } from '../bench/blob-soak';
import { downloadPayload } from '../../sync-server/store/file-storage';
import { openPostgres } from '../../sync-server/store/postgres';
import { UrlSigner } from '../../sync-server/store/url-signer';
import type { Db } from '../../sync-server/store/db';
import { spawnFolio, startCluster, type Cluster, type FolioProcess } from '../helpers/processes';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { gitbookClient } from '../helpers/server';

/**
 * Server processes with separate data folders sharing PostgreSQL, Redis and an
 * S3-protocol bucket (s3rver on 127.0.0.1): a file uploaded through one is
 * downloaded through the other, and a short soak (two processes, 30 s, one
 * killed and restarted midway) loses no acknowledged edit or upload.
 */
let s3: S3Server;
let cluster: Cluster;
let otherDir: string;
let db: Db;

beforeAll(async () => {
  s3 = await startS3Server();
  cluster = await startCluster(1, { env: { ...s3.env(), FOLIO_LOG_LEVEL: 'error' } });
  otherDir = await mkdtemp(join(tmpdir(), 'folio-cluster-b-'));
  cluster.processes.push(await spawnFolio({ ...cluster.env, FOLIO_DATA_DIR: otherDir }));
  db = await openPostgres(cluster.env.FOLIO_DATABASE_URL!);
}, 120_000);
afterAll(async () => {
  await db?.close();
  await cluster?.close();
  await s3?.close();
  if (otherDir) await rm(otherDir, { recursive: true, force: true });
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('blobs in a bucket shared by processes', () => {
  it('a file uploaded through process A downloads through process B, which has another data folder', async () => {
    const [a, b] = cluster.processes;
    const api = gitbookClient(a!.url);
    const orgId = (await api.orgs.createOrganization({ title: 'Shared bytes' })).data.id;
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
    const signer = await UrlSigner.load(db);
    const pairs: [FolioProcess, FolioProcess][] = [
      [a!, b!],
      [b!, a!],
    ];
    for (const [from, to] of pairs) {
      const bytes = randomBytes(6 * 1024 * 1024);
      const slot = await gitbookClient(from.url).orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'f.bin', type: 'application/octet-stream', size: bytes.length },
        kind: 'organization_file' as never,
      });
      const put = await fetch(slot.data.url, {
        method: 'PUT',
        body: new Uint8Array(bytes),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.status).toBe(200);
      const expires = Math.floor(Date.now() / 1000) + 3600;
      const type = 'application/octet-stream';
      const signature = signer.sign(downloadPayload({ sha256: sha(bytes), spaceId, contentType: type, expires }));
      const query = new URLSearchParams({ space: spaceId, type, expires: String(expires), signature });
      const res = await fetch(`${to.url}/v1/files/${sha(bytes)}/f.bin?${query}`);
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
    }
    // Neither data folder holds the bytes.
    for (const dir of [cluster.env.FOLIO_DATA_DIR!, otherDir]) {
      const files = (await readdir(join(dir, 'blobs'), { recursive: true }).catch(() => [])) as string[];
      expect(files.filter((f) => /[0-9a-f]{64}$/.test(f))).toEqual([]);
    }
  }, 60_000);

  it('a 30 s soak on two processes, one killed and restarted, loses no acknowledged edit or upload', async () => {
    const { problems, figures } = await runBlobSoak({
      processes: 2,
      sockets: 40,
      docs: 10,
      seconds: 30,
      editMs: 500,
      uploaders: 2,
      readers: 2,
      log: (line) => console.log(line),
    });
    console.log(JSON.stringify(figures));
    expect(problems).toEqual([]);
    expect(figures.editsAcknowledged).toBeGreaterThan(0);
    expect(figures.uploadsAcknowledged).toBeGreaterThan(0);
  }, 300_000);
});
