import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.mjs';
import { ROOT } from '../helpers/cli-process';
import {
  COMPILED_ENTRY,
  npmStartNodeFlags,
  rssMiB,
  START_ARGS,
  startServerProcess,
  type StartMode,
} from '../helpers/server-process';
import type { BenchOutcome } from './http-load';

/**
 * Start-up: from spawning the server process to its first 200 on GET /healthz, on a new (empty)
 * data dir and again on that same dir (existing), for the production start (compiled JS, plain
 * `node out/server/main.js`) and, as the baseline in the same run, the TypeScript sources through
 * tsx (what `npm start` ran before). Then the resident memory (VmRSS) of each process after
 * BENCH_STARTUP_IDLE_S of idling. PGlite's own open time is measured apart, in a process of its
 * own, so the server's share of the start is visible. Medians of BENCH_STARTUP_RUNS runs.
 * BENCH_STARTUP_REFERENCE=<a main.js built elsewhere> adds that build as a third mode, so a change's
 * before and after are measured in one run. Prints a table and writes test-artifacts/bench-startup.json.
 */

export const name = 'startup';

const RUNS = Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 3));
const IDLE_MS = Math.max(0, Number(process.env.BENCH_STARTUP_IDLE_S ?? 3)) * 1000;
/** A compiled server from another build (e.g. before a change: `node scripts/build-server.mjs out/server-before`). */
const REFERENCE = process.env.BENCH_STARTUP_REFERENCE;
type Mode = StartMode | 'reference';
const MODES: Mode[] = REFERENCE ? ['tsx', 'reference', 'compiled'] : ['tsx', 'compiled'];
const LABELS: Record<Mode, string> = {
  tsx: 'tsx (baseline)',
  reference: 'reference build',
  compiled: 'compiled (npm start)',
};
/**
 * Node's own flags of `npm start` (package.json's start script, e.g. `--v8-pool-size=1`): the
 * compiled mode runs with them, as `npm start` does. BENCH_STARTUP_NODE_FLAGS overrides them
 * (`BENCH_STARTUP_NODE_FLAGS=` measures without any); the reference build runs without.
 */
const START_FLAGS =
  process.env.BENCH_STARTUP_NODE_FLAGS !== undefined
    ? process.env.BENCH_STARTUP_NODE_FLAGS.split(/\s+/).filter(Boolean)
    : npmStartNodeFlags();

const argsOf = (mode: Mode) =>
  mode === 'reference' ? [REFERENCE!] : mode === 'compiled' ? [...START_FLAGS, COMPILED_ENTRY] : START_ARGS[mode];

interface Figures {
  mode: Mode;
  dataDir: 'new' | 'existing';
  firstAnswerMs: number[];
  firstAnswerCpuMs: number[];
  idleRssMiB: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One start on `dir`: ms to the first answer, then the RSS once idle; the process is stopped cleanly. */
async function once(mode: Mode, dir: string, problems: string[]): Promise<{ ms: number; cpuMs: number; rss: number }> {
  const server = await startServerProcess(mode === 'reference' ? 'compiled' : mode, dir, undefined, argsOf(mode));
  try {
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { ms: server.firstAnswerMs, cpuMs: server.firstAnswerCpuMs, rss: rssMiB(server.child.pid!) ?? NaN };
  } finally {
    const code = await server.stop();
    if (code !== 0) problems.push(`${mode}: the server exited with ${code} on SIGTERM:\n${server.output()}`);
  }
}

/** PGlite's open on a new and then on that existing directory, in a child process (through tsx: the import is not timed). */
function pgliteOpen(dir: string): Promise<{ newMs: number; existingMs: number }> {
  const script = `
    import { openPglite } from './sync-server/store/pglite.ts';
    const dir = process.argv[1];
    const times = [];
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      const db = await openPglite(dir);
      times.push(performance.now() - t);
      await db.close();
    }
    console.log(JSON.stringify({ newMs: times[0], existingMs: times[1] }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as { newMs: number; existingMs: number });
      else reject(new Error(`the PGlite open probe failed (${code}): ${out}`));
    });
  });
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const buildMs = await buildServer();
  console.log(
    `startup: server compiled in ${Math.round(buildMs)} ms; ${RUNS} run(s) per figure, ${IDLE_MS / 1000} s idle` +
      (REFERENCE ? `; reference build: ${REFERENCE}` : '') +
      `; compiled runs with node ${START_FLAGS.join(' ') || '(no flags)'}`,
  );
  const figures: Figures[] = MODES.flatMap((mode) =>
    (['new', 'existing'] as const).map((dataDir) => ({
      mode,
      dataDir,
      firstAnswerMs: [],
      firstAnswerCpuMs: [],
      idleRssMiB: [],
    })),
  );
  const pglite: { newMs: number[]; existingMs: number[] } = { newMs: [], existingMs: [] };
  const temp = await mkdtemp(join(os.tmpdir(), 'folio-bench-startup-'));
  try {
    for (let i = 0; i < RUNS; i++) {
      // Modes alternate within a round, so a busy spell of the machine hits both alike.
      for (const mode of MODES) {
        const dir = join(temp, `${mode}-${i}`);
        for (const f of figures.filter((x) => x.mode === mode)) {
          const { ms, cpuMs, rss } = await once(mode, dir, problems);
          f.firstAnswerMs.push(ms);
          f.firstAnswerCpuMs.push(cpuMs);
          f.idleRssMiB.push(rss);
        }
      }
      const open = await pgliteOpen(join(temp, `pglite-${i}`));
      pglite.newMs.push(open.newMs);
      pglite.existingMs.push(open.existingMs);
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }

  console.log('');
  console.log(
    'start                  data dir   first answer (ms)   CPU by then (ms)   idle RSS (MiB)   vs tsx (time / CPU / RSS)',
  );
  for (const f of figures) {
    const base = figures.find((b) => b.mode === 'tsx' && b.dataDir === f.dataDir)!;
    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
    console.log(
      `${LABELS[f.mode].padEnd(22)} ${f.dataDir.padEnd(10)} ` +
        `${median(f.firstAnswerMs).toFixed(0).padStart(17)}   ${median(f.firstAnswerCpuMs).toFixed(0).padStart(16)}   ` +
        `${median(f.idleRssMiB).toFixed(0).padStart(14)}   ` +
        `${ratio(f.firstAnswerMs, base.firstAnswerMs)} / ${ratio(f.firstAnswerCpuMs, base.firstAnswerCpuMs)} / ` +
        ratio(f.idleRssMiB, base.idleRssMiB),
    );
  }
  console.log(
    `PGlite open alone: new dir ${median(pglite.newMs).toFixed(0)} ms, existing ${median(pglite.existingMs).toFixed(0)} ms\n`,
  );

  const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(
    `${dir}bench-startup.json`,
    JSON.stringify(
      {
        bench: name,
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        runs: RUNS,
        reference: REFERENCE,
        compiledNodeFlags: START_FLAGS,
        idleS: IDLE_MS / 1000,
        buildMs,
        figures: figures.map((f) => ({
          ...f,
          medianFirstAnswerMs: median(f.firstAnswerMs),
          medianFirstAnswerCpuMs: median(f.firstAnswerCpuMs),
          medianIdleRssMiB: median(f.idleRssMiB),
        })),
        pglite: { ...pglite, medianNewMs: median(pglite.newMs), medianExistingMs: median(pglite.existingMs) },
      },
      null,
      2,
    ),
  );
  return { ok: problems.length === 0, problems };
}
