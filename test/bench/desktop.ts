import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc/content-doc';
import { readOutline } from '../../shared/doc/outline';
import { resolveTree } from '../../shared/doc/tree';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../helpers/web-app';
import { appJavaScriptSize } from './app-size';
import type { BenchOutcome } from './http-load';

/**
 * The desktop renderer in headless Chromium:
 * - cold open of a 1,000-page space from IndexedDB until its page tree is
 *   painted (a fresh page each time), against a baseline that paints the same
 *   rows from plain JSON (no Yjs, no IndexedDB);
 * - keystroke-to-paint latency in a 50,000-character markdown page (headings,
 *   emphasis, links, lists, tasks, tables, code, hints) with the app's editor
 *   bound to Yjs (y-codemirror.next) in live preview (the default look) and in
 *   source mode, against bare CodeMirror with the same base extensions and no
 *   binding, no live preview.
 * The app's own modules are bundled by Vite from test/bench/desktop-harness.ts.
 * Prints figures and writes test-artifacts/bench-desktop.json.
 */

export const name = 'desktop';

const PAGES = 1000;
const BODY_CHARS = 400;
const LONG_PAGE_CHARS = 50_000;
const LOADS = 5;
const KEYSTROKES = 60;

type EditorKind = 'yjs' | 'live' | 'bare';

/** A 50,000-character page of mixed markdown (what live preview decorates), mostly prose lines. */
function longMarkdownPage(): string {
  const section = (i: number) =>
    [
      `## Section ${i}`,
      '',
      'A line of a long page, written to measure typing latency in *big* documents with **markup**.',
      'A line with `inline code`, a [link](https://example.com/docs) and ~~struck~~ words in it.',
      '',
      '- a bullet item',
      '- [ ] a task to do',
      '- [x] a task done',
      '',
      '> A quoted line of text.',
      '',
      '| Name | Value |',
      '| --- | --- |',
      '| alpha | 1 |',
      '',
      '```js',
      'const answer = 42;',
      '```',
      '',
      '{% hint style="info" %}',
      'A hint body line.',
      '{% endhint %}',
      '',
      'A line of a long page, written to measure typing latency in big documents.',
      '',
    ].join('\n');
  let text = '# Long page\n\n';
  for (let i = 1; text.length < LONG_PAGE_CHARS; i++) text += section(i);
  return text.slice(0, LONG_PAGE_CHARS);
}

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** A 1,000-page content document (10 top-level sections of 99 pages, some nested), as one update. */
function bigSpace(): { update: Uint8Array; json: string } {
  const doc = new Y.Doc();
  const content = new ContentDoc(doc);
  const body = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '
    .repeat(Math.ceil(BODY_CHARS / 57))
    .slice(0, BODY_CHARS);
  doc.transact(() => {
    for (let s = 0; s < 10; s++) {
      const section = content.createPage({ title: `Section ${s + 1}`, markdown: body });
      let last = section;
      for (let p = 0; p < 99; p++) {
        const parent = p % 3 === 2 ? last : section;
        const id = content.createPage({ title: `Page ${s + 1}.${p + 1}`, parent, markdown: body });
        if (p % 3 !== 2) last = id;
      }
    }
  });
  const outline = readOutline(doc);
  const tree = resolveTree(outline);
  const toJson = (ids: readonly string[]): unknown[] =>
    ids.map((id) => ({ id, title: outline.get(id)!.title, children: toJson(tree.children.get(id) ?? []) }));
  return { update: Y.encodeStateAsUpdate(doc), json: JSON.stringify(toJson(tree.roots)) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

export async function run(): Promise<BenchOutcome> {
  const problems: string[] = [];
  const outDir = await mkdtemp(join(tmpdir(), 'folio-bench-desktop-'));
  await build({
    root: HERE,
    configFile: false,
    logLevel: 'warn',
    base: './',
    build: {
      outDir,
      emptyOutDir: true,
      chunkSizeWarningLimit: 10_000,
      rollupOptions: { input: resolve(HERE, 'desktop-harness.html') },
    },
  });
  const statics = await startStaticServer(outDir);
  // test/helpers/browser.ts's launcher, inlined: that module reads __dirname, which a bench (plain ESM under tsx) lacks.
  const browser = await chromium.launch({
    executablePath: process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = `${statics.url}desktop-harness.html`;
    type Bench = {
      seed(n: string, u: number[]): Promise<void>;
      openFromIndexedDb(n: string): Promise<[number, number]>;
      renderFromJson(j: string): Promise<[number, number]>;
      openEditor(k: EditorKind, t: string): void;
      livePreviewWidgets(): number;
      latencies(): [number[], number, number[]];
    };
    const call = <R>(fn: (b: Bench, arg: never) => R | Promise<R>, arg?: unknown): Promise<R> =>
      page.evaluate(
        ([f, a]) =>
          (new Function('b', 'a', `return (${f})(b, a)`) as (b: unknown, a: unknown) => R)(
            (window as unknown as { bench: Bench }).bench,
            a,
          ),
        [fn.toString(), arg] as const,
      );

    // 1. Cold open of a 1,000-page space.
    const space = bigSpace();
    await page.goto(url);
    await call((b, a: number[]) => b.seed('folio:bench:space', a), Array.from(space.update));
    const cold: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(url); // a fresh page: nothing of the document is in memory
      const [ms, rows] = await call((b) => b.openFromIndexedDb('folio:bench:space'));
      if (rows !== PAGES) problems.push(`cold open rendered ${rows} rows, expected ${PAGES}`);
      cold.push(ms);
      await page.goto(url);
      const [bms, brows] = await call((b, a: string) => b.renderFromJson(a), space.json);
      if (brows !== PAGES) problems.push(`baseline rendered ${brows} rows, expected ${PAGES}`);
      plain.push(bms);
    }

    // 2. Keystroke-to-paint in a 50,000-character page.
    const longText = longMarkdownPage();
    const typing: Record<EditorKind, number[]> = { yjs: [], live: [], bare: [] };
    const handling: Record<EditorKind, number[]> = { yjs: [], live: [], bare: [] };
    for (const kind of ['bare', 'live', 'yjs', 'bare', 'live', 'yjs'] as const) {
      await page.goto(url);
      await call((b, a: { k: EditorKind; t: string }) => b.openEditor(a.k, a.t), { k: kind, t: longText });
      // Let the markdown parser reach the viewport (it parses in the background), then check live preview draws.
      await page.waitForTimeout(1500);
      if (kind === 'live' && (await call((b) => b.livePreviewWidgets())) === 0)
        problems.push('the live-preview editor drew no live-preview decorations');
      for (let i = 0; i < KEYSTROKES / 2; i++) {
        await page.keyboard.type('x');
        await page.waitForFunction(
          (n) => (window as unknown as { bench: Bench }).bench.latencies()[0].length >= n,
          i + 1,
        );
      }
      const [lat, length, work] = await call((b) => b.latencies());
      if (length !== LONG_PAGE_CHARS + KEYSTROKES / 2)
        problems.push(
          `${kind} editor has ${length} characters after typing, expected ${LONG_PAGE_CHARS + KEYSTROKES / 2}`,
        );
      typing[kind].push(...lat.slice(2)); // the first keystrokes include focus and layout warm-up
      handling[kind].push(...work.slice(2));
    }

    const results = {
      coldOpen: { pages: PAGES, medianMs: median(cold), runs: cold },
      coldOpenBaselineJson: { medianMs: median(plain), runs: plain },
      keystrokeLivePreview: { chars: LONG_PAGE_CHARS, medianMs: median(typing.live), p95Ms: p95(typing.live) },
      keystrokeYjs: { chars: LONG_PAGE_CHARS, medianMs: median(typing.yjs), p95Ms: p95(typing.yjs) },
      keystrokeBare: { chars: LONG_PAGE_CHARS, medianMs: median(typing.bare), p95Ms: p95(typing.bare) },
      // Keydown -> editor update done (not rounded up to the next frame as paint is).
      handlingLivePreview: { medianMs: median(handling.live), p95Ms: p95(handling.live) },
      handlingYjs: { medianMs: median(handling.yjs), p95Ms: p95(handling.yjs) },
      handlingBare: { medianMs: median(handling.bare), p95Ms: p95(handling.bare) },
    };
    const openRatio = results.coldOpen.medianMs / results.coldOpenBaselineJson.medianMs;
    const keyRatio = results.keystrokeYjs.medianMs / results.keystrokeBare.medianMs;
    const liveRatio = results.keystrokeLivePreview.medianMs / results.keystrokeBare.medianMs;
    const liveWorkRatio = results.handlingLivePreview.medianMs / results.handlingBare.medianMs;
    console.log(
      `cold open, ${PAGES} pages from IndexedDB -> tree painted: median ${fmt(results.coldOpen.medianMs)} (runs ${cold.map(fmt).join(', ')})`,
    );
    console.log(
      `  baseline, same rows from plain JSON:               median ${fmt(results.coldOpenBaselineJson.medianMs)}  -> ratio ${openRatio.toFixed(2)}x`,
    );
    console.log(
      `keystroke -> paint, ${LONG_PAGE_CHARS} chars, full editor, live preview: median ${fmt(results.keystrokeLivePreview.medianMs)}, p95 ${fmt(results.keystrokeLivePreview.p95Ms)}  -> ratio ${liveRatio.toFixed(2)}x of bare (target <= 1.2x)`,
    );
    console.log(
      `keystroke -> paint, ${LONG_PAGE_CHARS} chars, full editor, source mode: median ${fmt(results.keystrokeYjs.medianMs)}, p95 ${fmt(results.keystrokeYjs.p95Ms)}`,
    );
    console.log(
      `  baseline, bare CodeMirror (no binding, no preview): median ${fmt(results.keystrokeBare.medianMs)}, p95 ${fmt(results.keystrokeBare.p95Ms)}  -> ratio ${keyRatio.toFixed(2)}x`,
    );
    console.log(
      `keystroke handling (keydown -> editor updated), median: live preview ${fmt(results.handlingLivePreview.medianMs)}, source mode ${fmt(results.handlingYjs.medianMs)}, bare ${fmt(results.handlingBare.medianMs)}  -> live/bare ${liveWorkRatio.toFixed(2)}x`,
    );
    // The built web app (`npm run build`), if there is one: what a browser downloads.
    const appSize = await appJavaScriptSize(resolve(HERE, '../../out/renderer')).catch(() => undefined);
    if (appSize)
      console.log(
        `web app JavaScript (gzip, out/renderer): before first paint ${(appSize.initialGzip / 1024).toFixed(1)} KiB, all chunks ${(appSize.totalGzip / 1024).toFixed(1)} KiB (${appSize.chunks}); compare builds with test/bench/app-size.ts <dir> <baseline dir>`,
      );
    const artifacts = resolve(HERE, '../../test-artifacts');
    await mkdir(artifacts, { recursive: true });
    await writeFile(
      join(artifacts, 'bench-desktop.json'),
      JSON.stringify(
        {
          bench: name,
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          results,
          appSize,
          ratios: {
            coldOpen: openRatio,
            keystroke: keyRatio,
            keystrokeLivePreview: liveRatio,
            handlingLivePreview: liveWorkRatio,
          },
          problems,
        },
        null,
        2,
      ) + '\n',
    );
    await context.close();
  } finally {
    await browser.close();
    await statics.close();
    await rm(outDir, { recursive: true, force: true });
  }
  return { ok: problems.length === 0, problems };
}
