import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MarkdownService } from '../../sync-server/markdown/service';
import { parseAllowList } from '../../sync-server/outbound';
import {
  engineFrom,
  translatePages,
  type MarkdownSegmenter,
  type TranslationEngine,
} from '../../sync-server/translation';
import { largePage } from '../helpers/large-markdown';
import { startLibreTranslateStandIn } from '../helpers/translate-engines';
import type { BenchOutcome } from './http-load';
import { writeArtifact } from './rest';

/**
 * A translation run over a space of BENCH_TRANSLATION_PAGES (50) generated pages of
 * BENCH_TRANSLATION_PAGE_CHARS (~20 kB) each, to the LibreTranslate stand-in on 127.0.0.1
 * (test/helpers/translate-engines.ts), with the markdown segmented on the event loop (the in-thread
 * path, the baseline) and in the parse pool (MarkdownService.segments, as run-job.ts does): the
 * event loop's delay (monitorEventLoopDelay, 1 ms resolution: p50, p99, max) and the run's total
 * time, as ratios to the baseline measured in the same run. BENCH_ROUNDS (3) rounds alternate which
 * mode goes first; the medians are reported. Each pool measurement gets a new service (no cached
 * segments) whose worker was started beforehand, as on a server that parses pages anyway. Writes
 * test-artifacts/bench-translation.json; never fails on timings.
 *
 * `npm run bench -- translation`
 */
export const name = 'translation';

const PAGES = Number(process.env.BENCH_TRANSLATION_PAGES ?? 50);
const PAGE_CHARS = Number(process.env.BENCH_TRANSLATION_PAGE_CHARS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

type Mode = 'in-thread' | 'pool';

interface Measure {
  mode: Mode;
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  poolTasks: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(
  mode: Mode,
  engine: TranslationEngine,
  pages: { id: string; text: { title: string; markdown: string } }[],
): Promise<{ measure: Measure; markdown: string[] }> {
  let service: MarkdownService | undefined;
  let segmenter: MarkdownSegmenter | undefined;
  if (mode === 'pool') {
    const pool = (service = new MarkdownService({ timeoutMs: 60_000 }));
    // Start the worker thread first (a server's pool is usually up): a text no page has.
    await pool.segments('Warm-up.\n');
    segmenter = (markdown) => pool.segments(markdown);
  }
  const before = service?.stats().tasks ?? 0;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const t0 = performance.now();
  try {
    const result = await translatePages(engine, pages, {
      from: 'en',
      to: 'fr',
      glossary: [],
      signal: new AbortController().signal,
      ...(segmenter ? { segmenter } : {}),
    });
    const totalMs = performance.now() - t0;
    delay.disable();
    return {
      measure: {
        mode,
        totalMs,
        p50Ms: delay.percentile(50) / 1e6,
        p99Ms: delay.percentile(99) / 1e6,
        maxMs: delay.max / 1e6,
        poolTasks: (service?.stats().tasks ?? 0) - before,
      },
      markdown: pages.map((p) => result.pages.get(p.id)?.markdown ?? ''),
    };
  } finally {
    delay.disable();
    await service?.close();
  }
}

function print(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padStart(widths[i]!)).join('  '));
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const standIn = await startLibreTranslateStandIn();
  try {
    const engine = engineFrom({ engine: 'libretranslate', url: standIn.url }, { allow: parseAllowList('127.0.0.1') })!;
    const pages = Array.from({ length: PAGES }, (_, i) => ({
      id: `page${i}`,
      text: { title: `Page ${i + 1}`, markdown: largePage(1_000 + i, PAGE_CHARS) },
    }));
    const chars = pages.reduce((n, p) => n + p.text.markdown.length, 0);
    console.log(
      `translation: ${PAGES} pages, ${(chars / 1024).toFixed(0)} KiB of markdown, LibreTranslate stand-in at ${standIn.url}, ${ROUNDS} rounds`,
    );

    const measures: Measure[] = [];
    let reference: string[] | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const order: Mode[] = round % 2 === 0 ? ['in-thread', 'pool'] : ['pool', 'in-thread'];
      for (const mode of order) {
        const { measure: m, markdown } = await measure(mode, engine, pages);
        measures.push(m);
        console.log(
          `  round ${round + 1} ${mode}: ${(m.totalMs / 1000).toFixed(2)} s, loop delay p99 ${m.p99Ms.toFixed(1)} ms, max ${m.maxMs.toFixed(1)} ms`,
        );
        reference ??= markdown;
        if (markdown.some((md, i) => md !== reference![i])) problems.push(`round ${round + 1} ${mode}: other pages`);
        if (markdown.some((md, i) => md === pages[i]!.text.markdown))
          problems.push(`round ${round + 1} ${mode}: a page was not translated`);
        if (mode === 'pool' && m.poolTasks !== PAGES)
          problems.push(`round ${round + 1}: ${m.poolTasks} pool tasks for ${PAGES} pages`);
      }
    }

    const summary = (mode: Mode) => {
      const of = measures.filter((m) => m.mode === mode);
      return {
        mode,
        totalMs: median(of.map((m) => m.totalMs)),
        p50Ms: median(of.map((m) => m.p50Ms)),
        p99Ms: median(of.map((m) => m.p99Ms)),
        maxMs: median(of.map((m) => m.maxMs)),
      };
    };
    const base = summary('in-thread');
    const pool = summary('pool');
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');
    console.log('\nmedians of the rounds; ratio = this mode ÷ in-thread (the baseline), lower is better');
    print(
      ['mode', 'total s', 'ratio', 'loop p50 ms', 'loop p99 ms', 'ratio', 'loop max ms'],
      [base, pool].map((s) => [
        s.mode,
        (s.totalMs / 1000).toFixed(2),
        ratio(s.totalMs, base.totalMs),
        s.p50Ms.toFixed(1),
        s.p99Ms.toFixed(1),
        ratio(s.p99Ms, base.p99Ms),
        s.maxMs.toFixed(1),
      ]),
    );
    const report = {
      settings: { pages: PAGES, pageChars: PAGE_CHARS, rounds: ROUNDS, node: process.version },
      inThread: base,
      pool,
      ratios: { total: pool.totalMs / base.totalMs, p99: pool.p99Ms / base.p99Ms },
      rounds: measures,
      problems,
    };
    console.log(`  ${await writeArtifact(report, 'translation')}`);
    return { ok: problems.length === 0, problems };
  } finally {
    await standIn.close();
  }
}
