import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../../scripts/build-server.mjs';
import { childEnv, ROOT } from '../helpers/cli-process';
import { freshPostgresDatabase } from '../helpers/postgres';
import { freePort, rssMiB, START_ARGS, startEnv, startServerProcess, type StartMode } from '../helpers/server-process';
import { startBenchServer } from './fixture';
import { measureWorkload, type InsertKind, type ServerSummary, type Workload } from './fanout';
import { loadSettings, type BenchOutcome } from './http-load';
import { REST_TARGETS, runScenario, scenarios, seed, writeArtifact, type ScenarioResult } from './rest';

/**
 * `npm run bench -- summary`: every figure of issue 17's table in one run,
 * each with its target and whether it is met. Short settings by default
 * (BENCH_DURATION_S=2, one start per figure, 50 fan-out clients, no paced
 * phase) so the whole run stays within a few minutes; every setting can be
 * raised through the same variables as the single benchmarks. Writes
 * test-artifacts/bench-summary.json.
 */
export const name = 'summary';

/** Seconds a freshly started server idles before its RSS is read. */
const IDLE_MS = Number(process.env.BENCH_SUMMARY_IDLE_S ?? 3) * 1000;
/** The fan-out workloads of the issues: 1 document, 50 clients, 2,000 one-character inserts, then 2,000 one-word inserts. */
const FANOUT_WORKLOADS: Workload[] = [
  {
    name: 'char',
    clients: Number(process.env.BENCH_FANOUT_CLIENTS ?? 50),
    inserts: Number(process.env.BENCH_FANOUT_INSERTS ?? 2000),
  },
  {
    name: 'word',
    clients: Number(process.env.BENCH_FANOUT_WORD_CLIENTS ?? 50),
    inserts: Number(process.env.BENCH_FANOUT_INSERTS ?? 2000),
  },
];
/** Rounds of each fan-out workload (Folio and Hocuspocus, alternating which goes first); the median round ratio is kept, and the highest RSS. */
const FANOUT_ROUNDS = Math.max(1, Number(process.env.BENCH_SUMMARY_FANOUT_ROUNDS ?? 3));

interface Row {
  figure: string;
  value: number | undefined;
  /** How the value is printed (unit included). */
  shown: string;
  target: string;
  met: boolean | undefined;
}

const atMost = (limit: number) => (v: number) => v <= limit;
const atLeast = (limit: number) => (v: number) => v >= limit;

function row(figure: string, value: number | undefined, unit: string, target: string, ok: (v: number) => boolean): Row {
  const digits = unit === '' ? 2 : 0;
  const shown = value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(digits)}${unit}`;
  return { figure, value, shown, target, met: value === undefined || Number.isNaN(value) ? undefined : ok(value) };
}

/** The production start (compiled) when it builds, else the sources through tsx (reported). */
async function startMode(problems: string[]): Promise<StartMode> {
  try {
    const ms = await buildServer();
    console.log(`summary: server compiled in ${Math.round(ms)} ms`);
    return 'compiled';
  } catch (err) {
    problems.push(`the server did not compile (${(err as Error).message}); start figures are from tsx`);
    return 'tsx';
  }
}

/** Start to first answer on a new data dir, its idle RSS, then start to first answer on that existing dir. */
async function pgliteStarts(mode: StartMode) {
  const dir = await mkdtemp(join(os.tmpdir(), 'folio-bench-summary-'));
  try {
    const first = await startServerProcess(mode, dir);
    let idleRss: number | undefined;
    try {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      idleRss = rssMiB(first.child.pid!);
    } finally {
      await first.stop();
    }
    const second = await startServerProcess(mode, dir);
    await second.stop();
    return { newMs: first.firstAnswerMs, existingMs: second.firstAnswerMs, idleRss };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Idle RSS of a server started like `npm start` on a fresh PostgreSQL database (FOLIO_TEST_PG_URL). */
async function postgresIdleRss(mode: StartMode): Promise<number | undefined> {
  const dir = await mkdtemp(join(os.tmpdir(), 'folio-bench-summary-pg-'));
  const db = await freshPostgresDatabase('folio_bench_summary');
  const port = await freePort();
  const child = spawn(process.execPath, START_ARGS[mode], {
    cwd: ROOT,
    env: {
      ...childEnv(dir),
      ...startEnv(mode),
      FOLIO_DATABASE_URL: db.url,
      FOLIO_PORT: String(port),
      FOLIO_HOST: '127.0.0.1',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the PostgreSQL server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('the PostgreSQL server did not answer within 120 s');
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return rssMiB(child.pid!);
  } finally {
    child.kill('SIGTERM');
    await exited;
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** GET space, GET page (of 1,000) and list spaces (50), each against a bare Fastify route, in one server (BENCH_BACKEND). */
async function restRatios(problems: string[]): Promise<ScenarioResult[]> {
  const settings = loadSettings();
  const b = await startBenchServer();
  try {
    const seeded = await seed(b);
    const wanted = scenarios(seeded).filter((s) => s.target !== undefined);
    const results: ScenarioResult[] = [];
    for (const sc of wanted) {
      console.log(`summary: rest ${sc.name} …`);
      const r = await runScenario(b, sc, settings, problems);
      if (r) results.push(r);
    }
    return results;
  } finally {
    await b.close();
  }
}

/** One workload's figures: Folio's and Hocuspocus's summaries (medians over the rounds). */
type FanoutFigures = Partial<Record<InsertKind, { folio?: ServerSummary; hocuspocus?: ServerSummary }>>;

/**
 * The bursts of both workloads against Folio (BENCH_BACKEND, default PGlite) and Hocuspocus, both started as
 * in production (compiled Folio, plain-node Hocuspocus; tsx when the build failed), in `rounds` rounds that
 * alternate which server goes first; each ratio is the median of the rounds' ratios (the clients share this
 * process, whose pauses slow down one round, not one server).
 */
async function fanout(problems: string[], mode: StartMode, rounds: number): Promise<FanoutFigures> {
  const figures: FanoutFigures = {};
  for (const workload of FANOUT_WORKLOADS) {
    const results = await measureWorkload(['folio', 'hocuspocus'], workload, rounds, problems, {
      paced: false,
      start: mode === 'compiled' ? 'production' : 'sources',
    });
    figures[workload.name] = {
      folio: results.find((r) => r.server === 'folio'),
      hocuspocus: results.find((r) => r.server === 'hocuspocus'),
    };
  }
  return figures;
}

function table(rows: Row[]): string {
  const head = ['figure', 'measured', 'target', 'met'];
  const cells = rows.map((r) => [r.figure, r.shown, r.target, r.met === undefined ? '?' : r.met ? 'met' : 'NOT met']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 1 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export async function run(): Promise<BenchOutcome> {
  process.env.BENCH_DURATION_S ??= '2';
  const problems: string[] = [];
  const started = performance.now();
  const mode = await startMode(problems);

  console.log(`summary: start and idle RSS (${mode}, PGlite)…`);
  const starts = await pgliteStarts(mode).catch((err: Error) => {
    problems.push(`PGlite start: ${err.message}`);
    return undefined;
  });
  console.log('summary: idle RSS on PostgreSQL…');
  const pgRss = await postgresIdleRss(mode).catch((err: Error) => {
    problems.push(`PostgreSQL start: ${err.message}`);
    return undefined;
  });
  // Fan-out before REST: its clients run in this process, which REST's load generation leaves with a big heap.
  console.log(
    `summary: fan-out (${FANOUT_WORKLOADS.map((w) => `${w.clients} clients, ${w.inserts} ${w.name} inserts`).join('; ')}; ${FANOUT_ROUNDS} rounds) …`,
  );
  const fan = await fanout(problems, mode, FANOUT_ROUNDS);
  const rest = await restRatios(problems);

  const ratio = (name: string) => rest.find((r) => r.scenario.startsWith(name))?.ratio;
  const cpu = (name: string) => rest.find((r) => r.scenario.startsWith(name))?.cpuRatio;
  const converge = (kind: InsertKind) => {
    const ratio = fan[kind]?.folio?.ratio;
    return ratio === undefined || Number.isNaN(ratio) ? undefined : ratio;
  };
  const peak = (server: 'folio' | 'hocuspocus') => {
    const peaks = FANOUT_WORKLOADS.map((w) => fan[w.name]?.[server]?.rssPeakBurstMiB ?? 0);
    return Math.max(...peaks);
  };
  const rssRatio = peak('folio') > 0 && peak('hocuspocus') > 0 ? peak('folio') / peak('hocuspocus') : undefined;
  const [charLoad, wordLoad] = FANOUT_WORKLOADS as [Workload, Workload];
  const rows: Row[] = [
    row('idle RSS, PGlite, empty data dir', starts?.idleRss, ' MiB', '<= 150 MiB', atMost(150)),
    row('idle RSS, PostgreSQL mode', pgRss, ' MiB', '<= 100 MiB', atMost(100)),
    row(`start to first answer, new data dir (${mode})`, starts?.newMs, ' ms', '<= 3000 ms', atMost(3000)),
    row(`start to first answer, existing data dir (${mode})`, starts?.existingMs, ' ms', '<= 1000 ms', atMost(1000)),
    row(
      'GET space vs bare route',
      ratio('GET space'),
      '',
      `>= ${REST_TARGETS.getSpace}`,
      atLeast(REST_TARGETS.getSpace),
    ),
    row(
      'GET page (1,000-page space) vs bare route',
      ratio('GET page'),
      '',
      `>= ${REST_TARGETS.getPage}`,
      atLeast(REST_TARGETS.getPage),
    ),
    row(
      'list spaces (50) vs bare route',
      ratio('list spaces'),
      '',
      `>= ${REST_TARGETS.listSpaces}`,
      atLeast(REST_TARGETS.listSpaces),
    ),
    row(
      `fan-out burst converge vs Hocuspocus (${charLoad.clients} clients, 1-char inserts)`,
      converge('char'),
      '',
      '<= 0.6',
      atMost(0.6),
    ),
    row(
      `fan-out burst converge vs Hocuspocus (${wordLoad.clients} clients, word inserts)`,
      converge('word'),
      '',
      '<= 0.6',
      atMost(0.6),
    ),
    row('server RSS during the burst vs Hocuspocus', rssRatio, '', '<= 2', atMost(2)),
  ];
  const backend = process.env.BENCH_BACKEND ?? 'pglite';
  console.log(
    `\nIssue 17 figures (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; REST: median of ${loadSettings().rounds} ` +
      `alternating rounds of ${process.env.BENCH_DURATION_S} s per side; REST and fan-out on ${backend}):\n`,
  );
  console.log(table(rows));
  console.log(
    `\nREST in main-thread CPU time per request (baseline µs / Folio µs; steadier than req/s on a busy machine): ` +
      `GET space ${cpu('GET space')?.toFixed(2)}, GET page ${cpu('GET page')?.toFixed(2)}, list spaces ${cpu('list spaces')?.toFixed(2)}`,
  );
  console.log(
    `REST req/s ratio of every round: ` +
      rest.map((r) => `${r.scenario} ${r.roundRatios.map((x) => x.toFixed(2)).join(' / ')}`).join('; '),
  );
  for (const w of FANOUT_WORKLOADS) {
    const { folio, hocuspocus } = fan[w.name] ?? {};
    if (folio && hocuspocus)
      console.log(
        `fan-out ${w.name}: Folio ${folio.burst.convergeMs.toFixed(0)} ms (median), peak ${folio.rssPeakBurstMiB.toFixed(0)} MiB; ` +
          `Hocuspocus ${hocuspocus.burst.convergeMs.toFixed(0)} ms, peak ${hocuspocus.rssPeakBurstMiB.toFixed(0)} MiB; ` +
          `ratio of every round ${folio.roundRatios.map((x) => x.toFixed(2)).join(' / ')}`,
      );
  }
  console.log(`summary: ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
  const file = await writeArtifact(
    {
      bench: name,
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      startMode: mode,
      fanoutBackend: backend,
      rows,
      rest,
      fanout: fan,
      starts,
      postgresIdleRssMiB: pgRss,
      problems,
    },
    name,
  );
  console.log(`summary: results written to ${file}`);
  return { ok: problems.length === 0, problems };
}
