import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { benchApi, startBenchServer, type BenchServer } from './fixture';
import type { BenchOutcome } from './http-load';
import { writeArtifact } from './rest';

/**
 * Git sync of a 200-page space against a real smart-HTTP server (`git http-backend` on 127.0.0.1):
 * the first export, an export with nothing changed (no commit), the import of one page edited with
 * git, and the export of one page edited in Folio — each from the request to the job's end. The
 * baseline, measured in the same run on the same server: the git CLI cloning the repository and
 * pushing the same one-file edit (what a docs-as-code writer's own tools take). Writes
 * test-artifacts/bench-git-sync.json; never fails on timings.
 *
 * `npm run bench -- git-sync` (BENCH_BACKEND=postgres for PostgreSQL).
 */
export const name = 'git-sync';

const PAGES = 200;
const exec = promisify(execFile);

const api = benchApi;

/** Milliseconds from asking for an operation to its job's end (drained in-process: no poll delay). */
async function timed(b: BenchServer, spaceId: string, direction: 'import' | 'export', body: unknown) {
  const t0 = performance.now();
  await api(b, 'POST', `/spaces/${spaceId}/git/${direction}`, body);
  await b.server.ctx.jobRunner.drain();
  const ms = performance.now() - t0;
  const info = await api(b, 'GET', `/spaces/${spaceId}/git/info`);
  const op = info.operation as { state: string; error?: string };
  if (op.state !== 'success') throw new Error(`${direction} ended ${op.state}: ${op.error ?? ''}`);
  return ms;
}

/** The git CLI: clone over HTTP, edit one file, commit, push (the baseline). */
async function cliEdit(git: GitHttpServer, repo: string, path: string): Promise<{ cloneMs: number; pushMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-git-'));
  try {
    const url = git.repoUrl(repo).replace('http://', `http://${git.username}:${git.password}@`);
    const t0 = performance.now();
    await exec('git', ['clone', '-q', url, dir]);
    const cloneMs = performance.now() - t0;
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), `# Edited\n\nChanged with the git CLI at ${Date.now()}.\n`);
    const t1 = performance.now();
    await exec('git', [
      '-C',
      dir,
      '-c',
      'user.name=Bench',
      '-c',
      'user.email=bench@example.com',
      'commit',
      '-qam',
      'Edit',
    ]);
    await exec('git', ['-C', dir, 'push', '-q', 'origin', 'HEAD']);
    return { cloneMs, pushMs: performance.now() - t1 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchOutcome> {
  const git = await startGitHttpServer();
  const b = await startBenchServer(undefined, { FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  try {
    const org = (await api(b, 'POST', '/orgs', { title: 'Bench' })).id as string;
    const spaceId = (await api(b, 'POST', `/orgs/${org}/spaces`, { title: 'Docs' })).id as string;
    for (let batch = 0; batch < PAGES / 50; batch++) {
      const cr = (await api(b, 'POST', `/spaces/${spaceId}/change-requests`, {})).id as string;
      const changes = Array.from({ length: 50 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${batch * 50 + i}`,
        document: {
          markdown: `Some text of page ${batch * 50 + i}.\n\n* a list\n* of items\n\n${'Words. '.repeat(80)}\n`,
        },
      }));
      await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/content`, { changes });
      await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/merge`);
    }
    await git.createRepo('bench');
    const url = git.repoUrl('bench').replace('http://', `http://${git.username}:${git.password}@`);
    const ref = 'refs/heads/main';
    const firstExportMs = await timed(b, spaceId, 'export', { url, ref, commitMessage: 'First' });
    const noopExportMs = await timed(b, spaceId, 'export', { url: git.repoUrl('bench'), ref, commitMessage: 'None' });
    const files = await git.readFiles('bench', 'main');
    const target = [...files.keys()].find((p) => p !== 'README.md' && p.endsWith('.md') && p !== 'SUMMARY.md')!;
    const cli = await cliEdit(git, 'bench', target);
    const importOneMs = await timed(b, spaceId, 'import', { url: git.repoUrl('bench'), ref });
    const pages = (await api(b, 'GET', `/spaces/${spaceId}/content/pages`)).pages as { id: string }[];
    const cr = (await api(b, 'POST', `/spaces/${spaceId}/change-requests`, {})).id as string;
    await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [{ operation: 'update_page', page: pages[3]!.id, document: { markdown: 'Edited in Folio.\n' } }],
    });
    await api(b, 'POST', `/spaces/${spaceId}/change-requests/${cr}/merge`);
    const exportOneMs = await timed(b, spaceId, 'export', { url: git.repoUrl('bench'), ref, commitMessage: 'One' });
    const report = {
      pages: PAGES,
      backend: b.backend,
      firstExportMs: Math.round(firstExportMs),
      noopExportMs: Math.round(noopExportMs),
      importOneEditMs: Math.round(importOneMs),
      exportOneEditMs: Math.round(exportOneMs),
      baselineCliCloneMs: Math.round(cli.cloneMs),
      baselineCliCommitPushMs: Math.round(cli.pushMs),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    };
    const ratio = (x: number, base: number) => (x / base).toFixed(2);
    console.log(`git sync of ${PAGES} pages (${b.backend}):`);
    console.log(`  first export             ${report.firstExportMs} ms`);
    console.log(`  export, nothing changed  ${report.noopExportMs} ms (no commit)`);
    console.log(
      `  import of one git edit   ${report.importOneEditMs} ms  (${ratio(importOneMs, cli.cloneMs + cli.pushMs)}x the git CLI's clone + commit + push: ${Math.round(cli.cloneMs + cli.pushMs)} ms)`,
    );
    console.log(
      `  export of one Folio edit ${report.exportOneEditMs} ms  (${ratio(exportOneMs, cli.pushMs)}x the git CLI's commit + push: ${report.baselineCliCommitPushMs} ms)`,
    );
    console.log(`  RSS ${report.rssMiB} MiB; ${await writeArtifact(report, 'git-sync')}`);
    return { ok: true, problems: [] };
  } finally {
    await b.close();
    await git.close();
  }
}
