import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { downloadPayload } from '../../sync-server/store/file-storage';
import { openPostgres } from '../../sync-server/store/postgres';
import { UrlSigner } from '../../sync-server/store/url-signer';
import { spawnFolio, startCluster, type FolioProcess } from '../helpers/processes';
import { startS3Server } from '../helpers/s3-server';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * The multi-process soak of issue 33: PROCESSES server processes, each with its
 * own data folder, on one PostgreSQL, one Redis and one S3-protocol server
 * (s3rver on 127.0.0.1). SOCKETS y-websocket clients over DOCS documents type
 * markers; uploaders PUT files through every process in turn; readers GET
 * files and pages through every process. Midway the last process is killed
 * (kill -9) and restarted on its port. At the end every acknowledged edit (a
 * marker that reached a client on another process: the server commits before
 * it broadcasts) is in the page every process serves over REST, and every
 * acknowledged upload (a 200) downloads through every process with its hash.
 */
export interface SoakOptions {
  processes: number;
  sockets: number;
  docs: number;
  seconds: number;
  /** One edit per socket every this many ms. */
  editMs: number;
  uploaders: number;
  readers: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  problems: string[];
  figures: Record<string, unknown>;
}

const MARKER = /<(\d+)\.(\d+)\.(\d+)>/g;
/** A request of the load not answered within this counts as refused (an upload) or failed (a read). */
const REQUEST_MS = 20_000;

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]! : NaN;
}

async function rssMb(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^folio_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return m ? Math.round(Number(m[1]) / 1024 / 1024) : NaN;
}

/** The status of an authenticated GET. */
async function raw(base: string, path: string): Promise<number> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  await res.arrayBuffer();
  return res.status;
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Runs the soak; the caller decides what its problems mean (a test fails, a bench reports). */
export async function runBlobSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? (() => undefined);
  const problems: string[] = [];
  const s3 = await startS3Server();
  // Loopback load from one address: the per-address limits would refuse most of it.
  const limits = { FOLIO_RATE_LIMIT_ANONYMOUS: 'off', FOLIO_RATE_LIMIT_WRITES: 'off', FOLIO_RATE_LIMIT_READS: 'off' };
  const env = { ...s3.env('soak/'), ...limits, FOLIO_LOG_LEVEL: 'error', FOLIO_REVISION_QUIET_MS: '300' };
  const cluster = await startCluster(1, { env });
  const dirs: string[] = [cluster.env.FOLIO_DATA_DIR!];
  const procs: (FolioProcess | undefined)[] = cluster.processes;
  const clients: Client[] = [];
  const db = await openPostgres(cluster.env.FOLIO_DATABASE_URL!);
  try {
    for (let i = 1; i < o.processes; i++) {
      dirs.push(await mkdtemp(join(tmpdir(), 'folio-soak-')));
      procs.push(await spawnFolio({ ...cluster.env, FOLIO_DATA_DIR: dirs[i]! }));
    }
    const urls = procs.map((p) => p!.url);
    const apis = urls.map((u) => new GitBookAPI({ endpoint: u, authToken: TEST_ADMIN_TOKEN }));
    const orgId = (await apis[0]!.orgs.createOrganization({ title: 'Soak' })).data.id;
    const spaces: string[] = [];
    for (let d = 0; d < o.docs; d++)
      spaces.push((await apis[0]!.orgs.createSpace(orgId, { title: `Soak ${d}` })).data.id);
    const signer = await UrlSigner.load(db);

    // Sockets: document i % docs, process spread so every document has clients on every process.
    const members = Array.from({ length: o.sockets }, (_, i) => {
      const doc = i % o.docs;
      const proc = Math.floor(i / o.docs) % o.processes;
      const client = connect(urls[proc]!, spaces[doc]!, TEST_ADMIN_TOKEN);
      clients.push(client);
      return { client, doc, proc, pageId: '' };
    });
    await Promise.all(members.map((m) => synced(m.client, 120_000)));
    const pages = spaces.map((_s, d) =>
      new ContentDoc(members[d]!.client.doc).createPage({ title: 'Soak', markdown: '' }),
    );
    for (const m of members) m.pageId = pages[m.doc]!;
    await waitFor(() => members.every((m) => new ContentDoc(m.client.doc).getPage(m.pageId)), 120_000, 'pages');
    // REST serves revisions: wait for each page's first one (cut after the quiet period).
    await waitFor(
      async () => {
        for (const [d, spaceId] of spaces.entries())
          if ((await raw(urls[0]!, `/v1/spaces/${spaceId}/content/page/${pages[d]}`)) !== 200) return false;
        return true;
      },
      120_000,
      'first revisions',
    );

    // Acknowledged: a marker seen by a client on another process than its writer's.
    const acked = new Map<string, number>();
    const editLatency: number[] = [];
    for (const m of members)
      new ContentDoc(m.client.doc).pageBody(m.pageId)!.observe((event, tx) => {
        if (tx.local) return;
        for (const op of event.delta)
          if (typeof op.insert === 'string')
            for (const hit of op.insert.matchAll(MARKER)) {
              const writer = members[Number(hit[1])]!;
              if (writer.proc === m.proc || acked.has(hit[0])) continue;
              acked.set(hit[0], writer.doc);
              editLatency.push(Date.now() - Number(hit[3]));
            }
      });

    const rss = { start: await Promise.all(urls.map(rssMb)), peak: urls.map(() => 0) };
    let running = true;
    let down = -1;
    let n = 0;
    let sent = 0;
    const timers = members.map((m, i) =>
      setInterval(() => {
        const text = new ContentDoc(m.client.doc).pageBody(m.pageId);
        if (!text) return;
        text.insert(text.length, `<${i}.${n++}.${Date.now()}>`);
        sent++;
      }, o.editMs),
    );

    const uploads: { sha256: string; size: number }[] = [];
    const uploadLatency: number[] = [];
    let uploadRefused = 0;
    let next = 0;
    const live = () => {
      for (;;) {
        const i = next++ % o.processes;
        if (i !== down) return i;
      }
    };
    const uploader = async () => {
      while (running) {
        const i = live();
        const bytes = randomBytes(16 * 1024 + Math.floor(Math.random() * 256 * 1024));
        const started = Date.now();
        try {
          const slot = await apis[i]!.orgs.generateStorageUploadUrl(orgId, {
            file: { name: 'soak.bin', type: 'application/octet-stream', size: bytes.length },
            kind: 'organization_file' as never,
          });
          const res = await fetch(slot.data.url, {
            method: 'PUT',
            body: new Uint8Array(bytes),
            headers: { 'content-type': 'application/octet-stream' },
            signal: AbortSignal.timeout(REQUEST_MS),
          });
          if (res.status === 200) {
            const got = (await res.json()) as { sha256: string };
            if (got.sha256 !== sha(bytes)) problems.push(`upload answered ${got.sha256} for ${sha(bytes)}`);
            uploads.push({ sha256: got.sha256, size: bytes.length });
            uploadLatency.push(Date.now() - started);
          } else uploadRefused++;
        } catch {
          uploadRefused++; // the process was killed under it: not acknowledged
        }
      }
    };
    const link = (base: string, sha256: string) => {
      const expires = Math.floor(Date.now() / 1000) + 3600;
      const type = 'application/octet-stream';
      const signature = signer.sign(downloadPayload({ sha256, spaceId: spaces[0]!, contentType: type, expires }));
      const q = new URLSearchParams({ space: spaces[0]!, type, expires: String(expires), signature });
      return `${base}/v1/files/${sha256}/soak.bin?${q}`;
    };
    const readLatency: number[] = [];
    let reads = 0;
    let readErrors = 0;
    const reader = async () => {
      while (running) {
        const i = live();
        const started = Date.now();
        try {
          const upload = uploads[Math.floor(Math.random() * uploads.length)];
          if (upload && reads % 2 === 0) {
            const res = await fetch(link(urls[i]!, upload.sha256), { signal: AbortSignal.timeout(REQUEST_MS) });
            const bytes = Buffer.from(await res.arrayBuffer());
            if (res.status !== 200 || sha(bytes) !== upload.sha256) readErrors++;
          } else {
            await apis[i]!.spaces.getPageById(spaces[reads % o.docs]!, pages[reads % o.docs]!, { format: 'markdown' });
          }
          reads++;
          readLatency.push(Date.now() - started);
        } catch (err) {
          if (i !== down && readErrors++ === 0) problems.push(`first failed read: ${(err as Error).message}`);
        }
        await sleep(5);
      }
    };
    const workers = [...Array.from({ length: o.uploaders }, uploader), ...Array.from({ length: o.readers }, reader)];

    const started = Date.now();
    let killed = false;
    while (Date.now() - started < o.seconds * 1000) {
      await sleep(Math.min(5000, o.seconds * 1000 - (Date.now() - started)));
      const now = await Promise.all(urls.map((u, i) => (i === down ? NaN : rssMb(u).catch(() => NaN))));
      now.forEach((v, i) => (rss.peak[i] = Math.max(rss.peak[i]!, v || 0)));
      log(
        `soak: ${Math.round((Date.now() - started) / 1000)} s, ${sent} edits, ${acked.size} acked, ${uploads.length} uploads, RSS ${now.join(' / ')} MB`,
      );
      if (!killed && Date.now() - started >= (o.seconds * 1000) / 2) {
        killed = true;
        down = o.processes - 1;
        const victim = procs[down]!;
        victim.crash();
        await victim.exited;
        log(`soak: process ${down} killed (kill -9)`);
        await sleep(1000);
        procs[down] = await spawnFolio({
          ...cluster.env,
          FOLIO_DATA_DIR: dirs[down]!,
          FOLIO_PORT: String(victim.port),
        });
        cluster.processes[down] = procs[down]!;
        down = -1;
        log('soak: restarted on its port');
      }
    }
    running = false;
    const seconds = (Date.now() - started) / 1000;
    for (const t of timers) clearInterval(t);
    await Promise.all(workers);
    log(`soak: load stopped after ${Math.round((Date.now() - started) / 1000)} s; checking every process`);
    rss.peak = rss.peak.map(Math.round);
    const end = await Promise.all(urls.map(rssMb));

    // Every acknowledged edit, in the page each process serves over REST.
    const byDoc = spaces.map(() => [] as string[]);
    for (const [marker, doc] of acked) byDoc[doc]!.push(marker);
    let missingEdits = 0;
    await waitFor(
      async () => {
        missingEdits = 0;
        for (const api of apis)
          for (const [d, spaceId] of spaces.entries()) {
            const page = (await api.spaces.getPageById(spaceId, pages[d]!, { format: 'markdown' })).data as {
              markdown?: string;
            };
            for (const marker of byDoc[d]!) if (!page.markdown?.includes(marker)) missingEdits++;
          }
        return missingEdits === 0;
      },
      120_000,
      'every acknowledged edit on every process',
    ).catch(() => problems.push(`${missingEdits} acknowledged edits missing from REST reads`));
    log(`soak: edits checked after ${Math.round((Date.now() - started) / 1000)} s`);
    // Every acknowledged upload, through every process, whole.
    let badUploads = 0;
    for (const u of urls)
      for (const up of uploads) {
        const res = await fetch(link(u, up.sha256));
        if (res.status !== 200 || sha(Buffer.from(await res.arrayBuffer())) !== up.sha256) {
          if (badUploads++ === 0)
            problems.push(
              `download through ${u}: ${res.status} ${await res.text().catch(() => '')} ${procs[urls.indexOf(u)]?.output().slice(-1500)}`,
            );
        }
      }
    if (badUploads > 0) problems.push(`${badUploads} downloads of acknowledged uploads failed or differed`);
    if (readErrors > 0) problems.push(`${readErrors} reads through live processes failed`);
    if (problems.length > 0) problems.push(`s3rver: ${s3.output().slice(-2000)}`);

    const figures = {
      processes: o.processes,
      sockets: o.sockets,
      documents: o.docs,
      seconds: Math.round(seconds),
      editsSent: sent,
      editsAcknowledged: acked.size,
      editsPerSecond: Math.round(acked.size / seconds),
      uploadsAcknowledged: uploads.length,
      uploadsRefusedOrCut: uploadRefused,
      uploadsPerSecond: Math.round((uploads.length / seconds) * 10) / 10,
      reads,
      readsPerSecond: Math.round(reads / seconds),
      p99Ms: { editToOtherProcess: p99(editLatency), upload: p99(uploadLatency), read: p99(readLatency) },
      rssMb: { start: rss.start, peak: rss.peak, end },
      missingEdits,
      badUploads,
      /** Requests the fake S3 server itself failed (its folder race, see s3-server-main.mjs). */
      s3ServerErrors: (s3.output().match(/^s3rver:/gm) ?? []).length,
    };
    return { problems, figures };
  } finally {
    for (const c of clients) c.destroy();
    await db.close().catch(() => undefined);
    await Promise.all(procs.slice(1).map((p) => p?.stop()));
    cluster.processes.splice(1);
    await cluster.close();
    await s3.close();
    for (const d of dirs.slice(1)) await rm(d, { recursive: true, force: true });
  }
}
