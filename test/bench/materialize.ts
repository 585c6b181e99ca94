import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as Y from 'yjs';
import { ContentDoc, Materializer, type ApiPage, type MaterializedContent } from '../../shared/doc';
import type { BenchOutcome } from './http-load';
import { analyzeMarkdown } from '../../shared/markdown/analyze';

/**
 * Materialization benchmark: a 1,000-page, ~5 MB space (10 groups > 90 pages
 * > 900 sub-pages, ~5 KB of markdown each with headings, links, lists and
 * code). Measures a full materialization (fresh Materializer + snapshot) and
 * an incremental one (snapshot after a one-character edit), medians of N
 * runs, and their ratio (target: incremental >= 20x faster). Also times a
 * snapshot after a page move (the structural path) and the lazy markdown
 * analysis, once for all pages and again after an edit.
 * Prints figures and writes test-artifacts/bench-materialize.json; it fails
 * only when the snapshots are wrong, never on timings.
 */

export const name = 'materialize';

const GROUPS = 10;
const PAGES_PER_GROUP = 9;
const SUBPAGES_PER_PAGE = 10;
const FULL_RUNS = Number(process.env.BENCH_FULL_RUNS ?? 9);
const INCREMENTAL_RUNS = Number(process.env.BENCH_INCREMENTAL_RUNS ?? 51);
const TARGET_RATIO = 20;

/** Deterministic pseudo-random numbers, so every run builds the same space. */
function prng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >>> 8) % n;
  };
}

const WORDS =
  'folio page sync document merge revision editor offline branch review content space markdown tree index link section'.split(
    ' ',
  );

/** ~5 KB of markdown linking to other pages (relative, by id, by path) and a file. */
function pageMarkdown(rand: (n: number) => number, others: { id: string; path: string }[]): string {
  const sentence = () => Array.from({ length: 12 + rand(10) }, () => WORDS[rand(WORDS.length)]).join(' ');
  const link = () => {
    const o = others[rand(others.length)]!;
    return rand(2) === 0 ? `[${o.path}](/pages/${o.id})` : `[see ${o.path}](/pages/${o.path}.md)`;
  };
  const parts: string[] = [];
  for (let s = 0; parts.join('\n').length < 4900; s++) {
    parts.push(`## Section ${s}: ${sentence().slice(0, 30)}\n`);
    parts.push(`${sentence()}, **${sentence()}** and ${link()}. ${sentence()} \`inline code\` ${link()}.\n`);
    parts.push(`- ${sentence()}\n- ${link()} ${sentence()}\n  - nested ${sentence()}\n`);
    parts.push('```ts\nconst value = compute(' + s + ');\nconsole.log(value);\n```\n');
    parts.push(`![diagram](.gitbook/assets/diagram-${s % 5}.png)\n`);
  }
  return parts.join('\n');
}

/** The benchmark space: 1,000 pages (~5 MB of markdown) in groups, pages and sub-pages, plus 5 files. Also used by the content bench. */
export function buildSpace(): { doc: Y.Doc; content: ContentDoc; leafIds: string[] } {
  const doc = new Y.Doc();
  const content = new ContentDoc(doc, { now: () => new Date('2024-05-01T10:00:00.000Z') });
  const rand = prng(7);
  const planned: { id: string; path: string }[] = [];
  const leafIds: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const group = content.createPage({ id: `g${g}`, title: `Group ${g}`, kind: 'group' });
    for (let p = 0; p < PAGES_PER_GROUP; p++) {
      const page = content.createPage({ id: `g${g}p${p}`, title: `Page ${g}.${p}`, parent: group });
      planned.push({ id: page, path: `group-${g}/page-${g}-${p}` });
      for (let s = 0; s < SUBPAGES_PER_PAGE; s++) {
        const id = content.createPage({ id: `g${g}p${p}s${s}`, title: `Sub ${g}.${p}.${s}`, parent: page });
        planned.push({ id, path: `group-${g}/page-${g}-${p}/sub-${g}-${p}-${s}` });
        leafIds.push(id);
      }
    }
  }
  for (const { id } of planned) content.setMarkdown(id, pageMarkdown(rand, planned));
  for (let f = 0; f < 5; f++)
    content.putFile(`file${f}`, {
      name: `diagram-${f}.png`,
      contentType: 'image/png',
      size: 1000 + f,
      width: 800,
      height: 600,
    });
  return { doc, content, leafIds };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const countPages = (pages: readonly ApiPage[]): number =>
  pages.reduce((n, p) => n + 1 + ('pages' in p ? countPages(p.pages) : 0), 0);

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

/** Checks a snapshot holds every page exactly once; returns problems. */
function check(s: MaterializedContent, expected: number): string[] {
  const problems: string[] = [];
  if (s.pageIndex.size !== expected) problems.push(`pageIndex has ${s.pageIndex.size} pages, expected ${expected}`);
  if (countPages(s.pages) !== expected) problems.push(`tree has ${countPages(s.pages)} pages, expected ${expected}`);
  return problems;
}

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const [{ doc, content, leafIds }, buildMs] = time(buildSpace);
  const pageCount = content.listPageIds().length;
  const docBytes = Y.encodeStateAsUpdate(doc).byteLength;
  const markdownBytes = content.listPageIds().reduce((n, id) => n + Buffer.byteLength(content.getMarkdown(id)), 0);

  // Full: a fresh materializer reads every page from the Y.Doc.
  const fullTimes: number[] = [];
  let full: MaterializedContent | undefined;
  for (let i = 0; i < FULL_RUNS; i++) {
    const m = new Materializer(doc, { analyze: analyzeMarkdown });
    const [snap, ms] = time(() => m.snapshot());
    m.destroy();
    fullTimes.push(ms);
    full = snap;
  }
  problems.push(...check(full!, pageCount));
  const snapshotBytes = Buffer.byteLength(JSON.stringify(full!.pages));

  // Incremental: one long-lived materializer, a one-character edit before each snapshot.
  const materializer = new Materializer(doc, { analyze: analyzeMarkdown });
  let prev = materializer.snapshot();
  const incTimes: number[] = [];
  const rebuilt: number[] = [];
  const rand = prng(11);
  for (let i = 0; i < INCREMENTAL_RUNS; i++) {
    const id = leafIds[rand(leafIds.length)]!;
    content.pageBody(id).insert(rand(100), 'x');
    const [snap, ms] = time(() => materializer.snapshot());
    incTimes.push(ms);
    let changed = 0;
    for (const [pid, info] of snap.pageIndex) if (prev.pageIndex.get(pid)?.page !== info.page) changed++;
    rebuilt.push(changed);
    const page = snap.pageIndex.get(id)?.page;
    if (!page || page.type !== 'document' || page.markdown !== content.getMarkdown(id))
      problems.push(`run ${i}: edited page ${id} not up to date`);
    // A leaf edit rebuilds the leaf, its page and its group: nothing else.
    if (changed !== 3)
      problems.push(`run ${i}: ${changed} page objects rebuilt after a one-character edit, expected 3`);
    prev = snap;
  }
  problems.push(...check(prev, pageCount));

  // Structural edit: moving a page re-resolves the whole tree (still without Yjs reads).
  const moveTimes: number[] = [];
  for (let i = 0; i < INCREMENTAL_RUNS; i++) {
    const id = leafIds[rand(leafIds.length)]!;
    const target = `g${rand(GROUPS)}p${rand(PAGES_PER_GROUP)}`;
    content.movePage(id, { parent: target });
    const [snap, ms] = time(() => materializer.snapshot());
    moveTimes.push(ms);
    if (snap.pageIndex.get(id)?.parentId !== target) problems.push(`move ${i}: ${id} not under ${target}`);
    prev = snap;
  }
  problems.push(...check(prev, pageCount));

  // Analysis is lazy and memoized per page version: all pages once, then again after one edit.
  const [, analysisFullMs] = time(() => {
    for (const id of prev.pageIndex.keys()) prev.analysis(id);
  });
  content.pageBody(leafIds[0]!).insert(0, 'y');
  const after = materializer.snapshot();
  const [, analysisIncMs] = time(() => {
    for (const id of after.pageIndex.keys()) after.analysis(id);
  });
  const linkCount = [...after.pageIndex.keys()].reduce((n, id) => n + (after.analysis(id)?.links.length ?? 0), 0);
  materializer.destroy();

  const fullMs = median(fullTimes);
  const incMs = median(incTimes);
  const ratio = fullMs / incMs;
  const moveMs = median(moveTimes);
  const results = {
    pages: pageCount,
    markdownBytes,
    yjsStateBytes: docBytes,
    snapshotJsonBytes: snapshotBytes,
    buildMs,
    fullMedianMs: fullMs,
    fullRuns: fullTimes,
    incrementalMedianMs: incMs,
    incrementalRuns: incTimes.length,
    ratio,
    targetRatio: TARGET_RATIO,
    targetMet: ratio >= TARGET_RATIO,
    pagesRebuiltPerEdit: median(rebuilt),
    afterMoveMedianMs: moveMs,
    analysisAllPagesMs: analysisFullMs,
    analysisAfterEditMs: analysisIncMs,
    links: linkCount,
    node: process.version,
    cpu: os.cpus()[0]?.model,
  };
  const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
  console.log(
    `space: ${pageCount} pages, markdown ${mb(markdownBytes)}, Yjs state ${mb(docBytes)}, snapshot JSON ${mb(snapshotBytes)} (built in ${buildMs.toFixed(0)} ms)`,
  );
  console.log(`full materialization        median ${fullMs.toFixed(2)} ms  (${FULL_RUNS} runs)`);
  console.log(
    `incremental (1-char edit)   median ${incMs.toFixed(3)} ms  (${INCREMENTAL_RUNS} runs, ${median(rebuilt)} page objects rebuilt per edit)`,
  );
  console.log(
    `ratio full / incremental    ${ratio.toFixed(1)}x  (target >= ${TARGET_RATIO}x: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`,
  );
  console.log(
    `after a page move            median ${moveMs.toFixed(3)} ms  (${INCREMENTAL_RUNS} runs; full tree re-resolution)`,
  );
  console.log(
    `analysis (links+sections)   all pages ${analysisFullMs.toFixed(0)} ms, after one edit ${analysisIncMs.toFixed(2)} ms (${linkCount} links)`,
  );

  const out = fileURLToPath(new URL('../../test-artifacts/bench-materialize.json', import.meta.url));
  await mkdir(fileURLToPath(new URL('../../test-artifacts/', import.meta.url)), { recursive: true });
  await writeFile(out, `${JSON.stringify({ results, problems }, null, 2)}\n`);
  return { ok: problems.length === 0, problems };
}
