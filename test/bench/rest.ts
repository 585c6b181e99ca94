import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as Y from 'yjs';
import { spaceContentDoc } from '../../shared/sync-contract';
import { BENCH_ADMIN_TOKEN, seedMembers, startBenchServer, type BenchServer } from './fixture';
import {
  capture,
  loadSettings,
  measure,
  startBaseline,
  type BenchOutcome,
  type LoadSettings,
  type Measurement,
} from './http-load';
import { buildSpace } from './materialize';

/**
 * REST benchmark: req/s and p99 latency of Folio for GET space, GET page (in
 * a 1,000-page space), GET org members (1000 members in one page) and list
 * spaces, each next to a bare Fastify route serving the same bytes in the
 * same run. Targets (issue 17): ratio >= 0.6 on GET space and GET page, >= 0.5
 * on list spaces. Prints figures and writes test-artifacts/bench-rest.json; it
 * never asserts on timings, only that every request answered 2xx.
 */

export const name = 'rest';

/** Spaces in the org (the list-spaces scenario returns all of them in one page). */
const SPACES = 50;
/** Members of the org: the admin who created it plus MEMBERS - 1 who join with an invite link. */
const MEMBERS = 1000;
/** The targets of issue 17: the share of bare-Fastify req/s Folio must keep. */
export const REST_TARGETS = { getSpace: 0.6, getPage: 0.6, listSpaces: 0.5 } as const;

export interface Scenario {
  name: string;
  path: string;
  /** Checks the captured body holds the data the scenario is about. */
  check(body: unknown): string | undefined;
  target?: number;
}

export interface ScenarioResult {
  scenario: string;
  path: string;
  responseBytes: number;
  folio: Measurement;
  baseline: Measurement;
  /** folio.reqPerSec / baseline.reqPerSec, of the median round (`folio` and `baseline` are that round's). */
  ratio: number;
  /** The ratio of every round, in the order measured. */
  roundRatios: number[];
  /** Main-thread CPU time per request (µs) of Folio and of the baseline, during the measured runs. */
  folioCpuUs?: number;
  baselineCpuUs?: number;
  /** baselineCpuUs / folioCpuUs: the same share measured in CPU time, which a busy machine skews less than req/s. */
  cpuRatio?: number;
  target?: number;
  targetMet?: boolean;
}

export interface Seeded {
  orgId: string;
  spaceId: string;
  /** A space of 1,000 pages (in an org of its own, so the list stays at SPACES) and one of its leaf pages. */
  bigSpaceId: string;
  pageId: string;
}

export async function seed(b: BenchServer): Promise<Seeded> {
  const orgId = (await b.client.orgs.createOrganization({ title: 'Bench Org' })).data.id;
  let spaceId = '';
  for (let i = 0; i < SPACES; i++) {
    const space = (await b.client.orgs.createSpace(orgId, { title: `Bench space ${i}`, emoji: '📘' })).data;
    if (i === 0) spaceId = space.id;
  }
  await seedMembers(b, orgId, MEMBERS - 1);
  const pagesOrg = (await b.client.orgs.createOrganization({ title: 'Bench Pages Org' })).data.id;
  const bigSpaceId = (await b.client.orgs.createSpace(pagesOrg, { title: 'Big space' })).data.id;
  const built = buildSpace();
  await b.server.ctx.hub.change(spaceContentDoc(bigSpaceId), (doc) =>
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(built.doc)),
  );
  await b.server.ctx.snapshots.revise(bigSpaceId);
  const pageId = built.leafIds[Math.floor(built.leafIds.length / 2)]!;
  return { orgId, spaceId, bigSpaceId, pageId };
}

export function scenarios(s: Seeded): Scenario[] {
  const listOf = (expected: number) => (body: unknown) => {
    const list = body as { items?: unknown[]; count?: number; next?: unknown };
    if (list.items?.length !== expected) return `expected ${expected} items in one page, got ${list.items?.length}`;
    if (list.next !== undefined) return 'expected a single page, got next';
    return undefined;
  };
  return [
    {
      name: 'GET space',
      path: `/v1/spaces/${s.spaceId}`,
      check: (body) => ((body as { id?: string }).id === s.spaceId ? undefined : 'wrong space'),
      target: REST_TARGETS.getSpace,
    },
    {
      name: 'GET page (of 1,000)',
      path: `/v1/spaces/${s.bigSpaceId}/content/page/${s.pageId}`,
      check: (body) => {
        const page = body as { id?: string; markdown?: string };
        if (page.id !== s.pageId) return 'wrong page';
        return (page.markdown?.length ?? 0) > 1000 ? undefined : 'the page has no markdown';
      },
      target: REST_TARGETS.getPage,
    },
    { name: `GET org members (${MEMBERS})`, path: `/v1/orgs/${s.orgId}/members?limit=1000`, check: listOf(MEMBERS) },
    {
      name: `list spaces (${SPACES})`,
      path: `/v1/orgs/${s.orgId}/spaces`,
      check: listOf(SPACES),
      target: REST_TARGETS.listSpaces,
    },
  ];
}

/**
 * CPU time (user + system, µs) the main thread of this process has used: Folio and the baseline serve from
 * it, while autocannon's worker thread is another task. Linux /proc; NaN elsewhere.
 */
function mainThreadCpuUs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / 100);
  } catch {
    return NaN;
  }
}

/** One measured run, with the main thread's CPU time per request of that run. */
async function measureCpu(url: string, headers: Record<string, string>, s: LoadSettings) {
  const before = mainThreadCpuUs();
  const run = await measure(url, headers, s.durationS, s);
  return { run, cpuUs: run.requests > 0 ? (mainThreadCpuUs() - before) / run.requests : NaN };
}

/** One measured round: the bare route and Folio, each for `durationS`, in the order given. */
interface Round {
  base: Awaited<ReturnType<typeof measureCpu>>;
  folio: Awaited<ReturnType<typeof measureCpu>>;
  ratio: number;
}

/**
 * Each side warmed up once, then `rounds` rounds of one measured run each, alternating which side goes
 * first (baseline first in the odd rounds); the round with the median req/s ratio is the result.
 */
export async function runScenario(
  b: BenchServer,
  sc: Scenario,
  settings: LoadSettings,
  problems: string[],
): Promise<ScenarioResult | undefined> {
  const headers = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` };
  const folioUrl = `${b.url}${sc.path}`;
  const response = await capture(folioUrl, headers);
  if (response.status !== 200) {
    problems.push(`${sc.name}: Folio answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
    return undefined;
  }
  const wrong = sc.check(JSON.parse(response.body.toString('utf8')));
  if (wrong) {
    problems.push(`${sc.name}: ${wrong}`);
    return undefined;
  }
  const baseline = await startBaseline(sc.path.split('?')[0]!, response);
  const rounds: Round[] = [];
  try {
    const baseUrl = `${baseline.url}${sc.path}`;
    const same = await capture(baseUrl, headers);
    if (!same.body.equals(response.body)) throw new Error(`${sc.name}: the baseline does not serve the same bytes`);
    if (settings.warmupS > 0) {
      await measure(baseUrl, headers, settings.warmupS, settings);
      await measure(folioUrl, headers, settings.warmupS, settings);
    }
    for (let i = 0; i < settings.rounds; i++) {
      const baseFirst = i % 2 === 0;
      const first = await measureCpu(baseFirst ? baseUrl : folioUrl, headers, settings);
      const second = await measureCpu(baseFirst ? folioUrl : baseUrl, headers, settings);
      const [base, folio] = baseFirst ? [first, second] : [second, first];
      rounds.push({ base, folio, ratio: base.run.reqPerSec > 0 ? folio.run.reqPerSec / base.run.reqPerSec : 0 });
    }
  } finally {
    await baseline.close();
  }
  for (const round of rounds)
    for (const [who, m] of [
      ['Folio', round.folio.run],
      ['baseline', round.base.run],
    ] as const) {
      if (m.non2xx > 0 || m.errors > 0)
        problems.push(`${sc.name}: ${who} had ${m.non2xx} non-2xx responses and ${m.errors} errors/timeouts`);
      if (m.requests === 0) problems.push(`${sc.name}: ${who} completed no requests`);
    }
  const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)]!;
  const { run: folio, cpuUs: folioCpuUs } = median.folio;
  const { run: base, cpuUs: baselineCpuUs } = median.base;
  const ratio = median.ratio;
  return {
    scenario: sc.name,
    path: sc.path,
    responseBytes: response.body.length,
    folio,
    baseline: base,
    ratio,
    folioCpuUs,
    baselineCpuUs,
    cpuRatio: baselineCpuUs / folioCpuUs,
    roundRatios: rounds.map((r) => r.ratio),
    ...(sc.target !== undefined ? { target: sc.target, targetMet: ratio >= sc.target } : {}),
  };
}

export function table(results: ScenarioResult[]): string {
  const head = [
    'scenario',
    'bytes',
    'folio req/s',
    'folio p99 ms',
    'base req/s',
    'base p99 ms',
    'ratio (rounds)',
    'cpu µs folio/base',
    'cpu ratio',
    'target',
  ];
  const rows = results.map((r) => [
    r.scenario,
    String(r.responseBytes),
    r.folio.reqPerSec.toFixed(0),
    r.folio.latencyP99Ms.toFixed(1),
    r.baseline.reqPerSec.toFixed(0),
    r.baseline.latencyP99Ms.toFixed(1),
    `${r.ratio.toFixed(3)} (${r.roundRatios.map((x) => x.toFixed(2)).join('/')})`,
    r.folioCpuUs === undefined ? '-' : `${r.folioCpuUs.toFixed(1)}/${r.baselineCpuUs?.toFixed(1)}`,
    r.cpuRatio === undefined ? '-' : r.cpuRatio.toFixed(3),
    r.target === undefined ? '-' : `>= ${r.target}: ${r.targetMet ? 'met' : 'NOT met'}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Writes test-artifacts/bench-<bench>.json and returns its path. */
export async function writeArtifact(report: object, bench = 'rest'): Promise<string> {
  const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = `${dir}bench-${bench}.json`;
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}

export async function run(): Promise<BenchOutcome> {
  const settings = loadSettings();
  const problems: string[] = [];
  const b = await startBenchServer();
  try {
    console.log(`rest: Folio on ${b.url} (${b.backend}), seeding 1 org, ${SPACES} spaces, ${MEMBERS} members…`);
    const t0 = performance.now();
    const seeded = await seed(b);
    console.log(`rest: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(
      `rest: ${settings.durationS} s per run after ${settings.warmupS} s warm-up, ${settings.connections} connections, ` +
        `${settings.workers ? `${settings.workers} autocannon worker thread(s)` : 'autocannon on the main thread'}`,
    );
    const results: ScenarioResult[] = [];
    for (const sc of scenarios(seeded)) {
      console.log(`rest: ${sc.name} …`);
      const r = await runScenario(b, sc, settings, problems);
      if (r) results.push(r);
    }
    console.log('\n' + table(results) + '\n');
    const file = await writeArtifact({
      bench: name,
      date: new Date().toISOString(),
      backend: b.backend,
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      settings,
      seed: { spaces: SPACES, members: MEMBERS },
      results,
      problems,
    });
    console.log(`rest: results written to ${file}`);
  } finally {
    await b.close();
  }
  return { ok: problems.length === 0, problems };
}
