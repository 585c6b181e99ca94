import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnFolio, type FolioProcess } from '../helpers/processes';
import { freshPostgresDatabase } from '../helpers/postgres';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { benchBackend } from './fixture';
import type { BenchOutcome } from './http-load';

/**
 * Upload memory benchmark: a real server process (`npm start`'s entry point,
 * PGlite in a temp data dir, or PostgreSQL with BENCH_BACKEND=postgres) receives `BENCH_UPLOADS` (default 4) concurrent
 * uploads of `BENCH_UPLOAD_MB` (default 100) MB each through signed upload
 * URLs. Prints the server's resident memory before, and its peak (the
 * kernel's VmHWM high-water mark, so no sample can miss it) after. The server
 * runs in its own process so the client's buffers do not count.
 */
export const name = 'upload';

/** A process's memory figure from /proc (kB -> MB), e.g. VmRSS or VmHWM. */
async function procMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

async function api(server: FolioProcess, method: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function run(): Promise<BenchOutcome> {
  const count = Number(process.env.BENCH_UPLOADS ?? 4);
  const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 100);
  const size = megabytes * 1024 * 1024;
  const problems: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-bench-upload-'));
  const pgDb = benchBackend() === 'postgres' ? await freshPostgresDatabase('folio_bench') : undefined;
  const server = await spawnFolio({
    FOLIO_DATA_DIR: dataDir,
    FOLIO_LOG_LEVEL: 'warn',
    ...(pgDb ? { FOLIO_DATABASE_URL: pgDb.url } : {}),
  });
  try {
    const pid = server.child.pid!;
    const { id: orgId } = (await api(server, 'POST', '/orgs', { title: 'Upload bench' })) as { id: string };
    // Distinct bytes per upload (the first byte differs), so every upload is its own blob.
    const bodies = Array.from({ length: count }, (_, i) => {
      const bytes = Buffer.alloc(size, 0x61);
      bytes[0] = i;
      return bytes;
    });
    const slots = await Promise.all(
      bodies.map(
        (_, i) =>
          api(server, 'POST', `/orgs/${orgId}/storage/upload`, {
            file: { name: `big-${i}.bin`, type: 'application/octet-stream', size },
            kind: 'organization_file',
          }) as Promise<{ url: string }>,
      ),
    );
    const before = await procMemoryMb(pid, 'VmRSS');
    const peakBefore = await procMemoryMb(pid, 'VmHWM');
    console.log(
      `upload: server pid ${pid} (${benchBackend()}), RSS ${before.toFixed(0)} MB (peak so far ${peakBefore.toFixed(0)} MB)`,
    );
    console.log(`upload: ${count} concurrent uploads of ${megabytes} MB …`);
    const t0 = performance.now();
    const results = await Promise.all(
      slots.map(async (slot, i) => {
        const res = await fetch(slot.url, {
          method: 'PUT',
          body: bodies[i]!,
          headers: { 'content-type': 'application/octet-stream' },
        });
        if (res.status !== 200) problems.push(`upload ${i}: ${res.status} ${await res.text()}`);
        else await res.arrayBuffer();
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const after = await procMemoryMb(pid, 'VmRSS');
    const peak = await procMemoryMb(pid, 'VmHWM');
    console.log(
      `\nuploads  MB each  seconds  RSS before MB  peak RSS MB  RSS after MB\n` +
        `${String(results.length).padStart(7)}  ${String(megabytes).padStart(7)}  ${seconds.toFixed(1).padStart(7)}  ` +
        `${before.toFixed(0).padStart(13)}  ${peak.toFixed(0).padStart(11)}  ${after.toFixed(0).padStart(12)}\n`,
    );
  } finally {
    await server.stop();
    await pgDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { ok: problems.length === 0, problems };
}
