import { mkdir, writeFile } from 'node:fs/promises';
import { GitBookAPI } from '@gitbook/api';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';
import { startCluster, type FolioProcess } from '../helpers/processes';
import type { BenchOutcome } from './http-load';

/**
 * Load across two server processes sharing PostgreSQL and Redis (127.0.0.1):
 * SOCKETS (1,000) stock y-websocket clients spread over DOCS (100) documents,
 * half of each document's clients on each process, every client appending a
 * marker to its document every EDIT_MS for DURATION_S (300 s). Figures: edits
 * sent, errors (socket errors, unexpected closes), convergence at the end
 * (every client of a document holds the same state, with every marker), the
 * servers' memory (RSS at start, peak, end) and delivery latency (edit at the
 * writer -> arrival at the first client of its document), split by whether
 * writer and receiver are on the same process or not: the same-process
 * delivery is the baseline the Redis hop is compared with, in the same run.
 * Writes test-artifacts/bench-load.json.
 */

export const name = 'load';

const SOCKETS = Number(process.env.BENCH_LOAD_SOCKETS ?? 1000);
const DOCS = Number(process.env.BENCH_LOAD_DOCS ?? 100);
const DURATION_S = Number(process.env.BENCH_LOAD_S ?? 300);
const EDIT_MS = Number(process.env.BENCH_LOAD_EDIT_MS ?? 2000);
const SAMPLE_EVERY_MS = 15_000;

interface Member {
  client: Client;
  process: number;
  doc: number;
  pageId: string;
}

const MARKER = /<(\d+)\.(\d+)\.(\d+)>/g;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Resident memory of a server process, read from its Prometheus endpoint. */
async function rssMb(p: FolioProcess): Promise<number> {
  const text = await (await fetch(`${p.url}/metrics`)).text();
  const m = /^folio_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return m ? Number(m[1]) / 1024 / 1024 : NaN;
}

/**
 * `npm run bench -- load`: the two-process socket load below, then the multi-process soak of
 * issue 33 (three processes with their own data folders on PostgreSQL, Redis and an S3-protocol
 * bucket, uploads and REST reads, one process killed and restarted midway: blob-soak.ts), which
 * writes test-artifacts/bench-soak.json. BENCH_SOAK_S sets its length (default 120 s; 0 skips it).
 */
export async function run(): Promise<BenchOutcome> {
  const load = await runSocketLoad();
  const seconds = Number(process.env.BENCH_SOAK_S ?? 120);
  if (seconds <= 0) return load;
  const { runBlobSoak } = await import('./blob-soak');
  const soak = await runBlobSoak({
    processes: 3,
    sockets: SOCKETS,
    docs: DOCS,
    seconds,
    editMs: EDIT_MS,
    uploaders: 4,
    readers: 4,
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(soak.figures, null, 2));
  await mkdir('test-artifacts', { recursive: true });
  await writeFile('test-artifacts/bench-soak.json', JSON.stringify(soak.figures, null, 2));
  return { ok: load.ok && soak.problems.length === 0, problems: [...load.problems, ...soak.problems] };
}

async function runSocketLoad(): Promise<BenchOutcome> {
  process.setMaxListeners(0);
  const problems: string[] = [];
  console.log(
    `load: ${SOCKETS} sockets over ${DOCS} documents on 2 processes, one edit per socket every ${EDIT_MS} ms for ${DURATION_S} s`,
  );
  // Revisions at the production quiet period (2 s): the bench measures live editing, not revision churn.
  const cluster = await startCluster(2, { env: { FOLIO_LOG_LEVEL: 'error', FOLIO_REVISION_QUIET_MS: '2000' } });
  const members: Member[] = [];
  try {
    const [a] = cluster.processes;
    const api = new GitBookAPI({ endpoint: a!.url, authToken: TEST_ADMIN_TOKEN });
    const orgId = (await api.orgs.createOrganization({ title: 'Load' })).data.id;
    const spaces: { spaceId: string; pageId: string }[] = [];
    for (let d = 0; d < DOCS; d++) {
      const spaceId = (await api.orgs.createSpace(orgId, { title: `Load ${d}` })).data.id;
      spaces.push({ spaceId, pageId: '' });
    }
    const perDoc = Math.ceil(SOCKETS / DOCS);
    for (let i = 0; i < SOCKETS; i++) {
      const doc = i % DOCS;
      const proc = Math.floor(i / DOCS) % 2;
      members.push({
        client: connect(cluster.processes[proc]!.url, spaces[doc]!.spaceId, TEST_ADMIN_TOKEN),
        process: proc,
        doc,
        pageId: '',
      });
    }
    let errors = 0;
    const closes: number[] = [];
    for (const m of members) {
      m.client.provider.on('connection-error', () => errors++);
      m.client.provider.on('connection-close', (event) => closes.push(event?.code ?? 0));
    }
    await Promise.all(members.map((m) => synced(m.client, 120_000)));
    console.log(`load: ${members.length} sockets synced (${perDoc} per document)`);
    // One page per document, created by its first client.
    for (let d = 0; d < DOCS; d++)
      spaces[d]!.pageId = new ContentDoc(members[d]!.client.doc).createPage({ title: 'Load', markdown: '' });
    for (const m of members) m.pageId = spaces[m.doc]!.pageId;
    await waitFor(
      () => members.every((m) => new ContentDoc(m.client.doc).getPage(m.pageId)),
      120_000,
      'pages on every client',
    );

    // Latency: the first client of each document watches what arrives.
    const latency = { same: [] as number[], cross: [] as number[] };
    for (let d = 0; d < DOCS; d++) {
      const watcher = members[d]!;
      new ContentDoc(watcher.client.doc).pageBody(watcher.pageId)!.observe((event, tx) => {
        if (tx.local) return;
        const now = Date.now();
        for (const op of event.delta) {
          if (typeof op.insert !== 'string') continue;
          for (const m of op.insert.matchAll(MARKER)) {
            const writer = members[Number(m[1])]!;
            (writer.process === watcher.process ? latency.same : latency.cross).push(now - Number(m[3]));
          }
        }
      });
    }

    const rss = { start: await Promise.all(cluster.processes.map(rssMb)), peak: [0, 0], samples: [] as number[][] };
    let sent = 0;
    let n = 0;
    const written = members.map(() => new Set<string>());
    // Spread the edits over the period so the load is steady, not a tick-aligned burst.
    const timers = members.map((m, i) =>
      setTimeout(
        () => {
          const tick = setInterval(() => {
            const text = new ContentDoc(m.client.doc).pageBody(m.pageId);
            if (!text) return;
            const marker = `<${i}.${n++}.${Date.now()}>`;
            text.insert(text.length, marker);
            written[i]!.add(marker);
            sent++;
          }, EDIT_MS);
          timers[i] = tick;
        },
        (i * EDIT_MS) / members.length,
      ),
    );
    const started = Date.now();
    while (Date.now() - started < DURATION_S * 1000) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_EVERY_MS, DURATION_S * 1000 - (Date.now() - started))));
      const now = await Promise.all(cluster.processes.map(rssMb));
      rss.samples.push(now);
      now.forEach((v, i) => (rss.peak[i] = Math.max(rss.peak[i]!, v)));
      console.log(
        `load: ${Math.round((Date.now() - started) / 1000)} s, ${sent} edits, RSS ${now.map((v) => v.toFixed(0)).join(' / ')} MB, errors ${errors}`,
      );
    }
    for (const t of timers) clearInterval(t);
    const editSeconds = (Date.now() - started) / 1000;

    // Convergence: every client of a document ends with the same text, holding every marker written to it.
    const convergeStart = Date.now();
    const byDoc = (d: number) => members.filter((m) => m.doc === d);
    const text = (m: Member) => new ContentDoc(m.client.doc).pageBody(m.pageId)!.toString();
    await waitFor(() => spaces.every((_s, d) => new Set(byDoc(d).map(text)).size === 1), 300_000, 'convergence').catch(
      (err: Error) => problems.push(err.message),
    );
    const convergeMs = Date.now() - convergeStart;
    let missing = 0;
    members.forEach((m, i) => {
      const t = text(members[m.doc]!);
      for (const marker of written[i]!) if (!t.includes(marker)) missing++;
    });
    const sameVectors = spaces.every(
      (_s, d) =>
        new Set(byDoc(d).map((m) => Buffer.from(Y.encodeStateVector(m.client.doc)).toString('hex'))).size === 1,
    );
    const unexpectedCloses = closes.filter((c) => c !== 1000 && c !== 1001);
    rss.samples.push(await Promise.all(cluster.processes.map(rssMb)));
    const end = rss.samples.at(-1)!;
    if (errors > 0) problems.push(`${errors} socket errors`);
    if (unexpectedCloses.length > 0)
      problems.push(
        `${unexpectedCloses.length} unexpected closes (codes ${[...new Set(unexpectedCloses)].join(', ')})`,
      );
    if (missing > 0) problems.push(`${missing} written markers missing after convergence`);
    if (!sameVectors) problems.push('clients of a document ended with different state vectors');

    const same = latency.same.sort((x, y) => x - y);
    const cross = latency.cross.sort((x, y) => x - y);
    const figures = {
      sockets: members.length,
      documents: DOCS,
      seconds: Math.round(editSeconds),
      edits: sent,
      editsPerSecond: Math.round(sent / editSeconds),
      errors,
      unexpectedCloses: unexpectedCloses.length,
      missingMarkers: missing,
      convergeMsAfterStop: convergeMs,
      rssMb: {
        start: rss.start.map(Math.round),
        peak: rss.peak.map(Math.round),
        end: end.map(Math.round),
        growth: end.map((v, i) => Math.round(v - rss.start[i]!)),
      },
      latencyMs: {
        sameProcess: { n: same.length, p50: percentile(same, 50), p99: percentile(same, 99) },
        otherProcess: { n: cross.length, p50: percentile(cross, 50), p99: percentile(cross, 99) },
        ratioP50: percentile(cross, 50) / percentile(same, 50),
        ratioP99: percentile(cross, 99) / percentile(same, 99),
      },
    };
    console.log(JSON.stringify(figures, null, 2));
    await mkdir('test-artifacts', { recursive: true });
    await writeFile('test-artifacts/bench-load.json', JSON.stringify(figures, null, 2));
    return { ok: problems.length === 0, problems };
  } finally {
    for (const m of members) m.client.destroy();
    await cluster.close();
  }
}
