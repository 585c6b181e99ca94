import { afterAll, describe, expect, it } from 'vitest';
import { segmentMarkdown } from '../../shared/markdown/translation/markdown-segments';
import { MarkdownService } from '../../sync-server/markdown/service';
import { parseAllowList } from '../../sync-server/outbound';
import {
  engineFrom,
  translatePages,
  type MarkdownSegmenter,
  type PageText,
  type TranslatePagesOptions,
} from '../../sync-server/translation';
import { largePage } from '../helpers/large-markdown';
import { SLOW_BUT_WITHIN_LIMITS } from '../helpers/hostile-markdown';
import { RICH_MARKDOWN, startLibreTranslateStandIn, type LibreTranslateStandIn } from '../helpers/translate-engines';

/**
 * Segmentation in the server's parse pool (MarkdownService.segments, a worker thread) for a run
 * given a segmenter, as run-job.ts gives it: the same pages come out as when the markdown is parsed
 * on the calling thread, every page is a task of the pool, and the event loop keeps turning while a
 * large page is being parsed. Real worker threads and a stand-in engine on 127.0.0.1.
 */

const services: MarkdownService[] = [];
const service = (timeoutMs = 60_000) => {
  const s = new MarkdownService({ timeoutMs });
  services.push(s);
  return s;
};
let standIn: LibreTranslateStandIn | undefined;
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  await standIn?.close();
});

async function libre() {
  standIn ??= await startLibreTranslateStandIn();
  return engineFrom(
    { engine: 'libretranslate', url: standIn.url },
    { allow: parseAllowList('127.0.0.1'), retry: { baseDelayMs: 1, maxDelayMs: 5 } },
  )!;
}

async function translate(pages: { id: string; text: PageText }[], options: Partial<TranslatePagesOptions> = {}) {
  return translatePages(await libre(), pages, {
    from: 'en',
    to: 'fr',
    glossary: [],
    signal: new AbortController().signal,
    ...options,
  });
}

/** 190 KB of generated documentation: prose, headings, lists, code and links (test/helpers/large-markdown.ts). */
const LARGE = largePage(189, 190_000);
const PAGES = [
  { id: 'large', text: { title: 'A large page', markdown: LARGE } },
  { id: 'rich', text: { title: 'Rich', description: 'Every construct', markdown: RICH_MARKDOWN } },
  { id: 'deep', text: { title: 'Deep', markdown: `${'>'.repeat(150)} deep\n` } },
  { id: 'bare', text: { title: 'Title only' } },
];

describe('segmentation in the parse pool', () => {
  it('gives the segments the calling thread gives, or why the page is kept untranslated', async () => {
    const s = service();
    expect(await s.segments(RICH_MARKDOWN)).toEqual({ segments: segmentMarkdown(RICH_MARKDOWN).segments });
    expect(await s.segments(`${'>'.repeat(150)} deep\n`)).toEqual({
      untranslated: expect.stringContaining('nests more than'),
    });
    // Over the time budget: degraded like every other use of a text too slow to parse.
    expect(await service(1).segments(SLOW_BUT_WITHIN_LIMITS)).toEqual({
      untranslated: expect.stringContaining('took longer than 1 ms'),
    });
  });

  it('translates pages exactly as the in-thread path does, each markdown a task of the pool', async () => {
    const s = service();
    const inThread = await translate(PAGES);
    const pooled = await translate(PAGES, { segmenter: (markdown) => s.segments(markdown) });
    expect(pooled.pages).toEqual(inThread.pages);
    expect(pooled.untranslated).toEqual(inThread.untranslated);
    expect(pooled.untranslated).toEqual([{ pageId: 'deep', reason: expect.stringContaining('nests') }]);
    expect(pooled.pages.get('large')!.markdown).not.toBe(LARGE);
    // The large and the rich page went to a worker; the deep one was refused by the limits unparsed.
    expect(s.stats()).toMatchObject({ tasks: 2, refused: 1 });
  });

  it('keeps the event loop turning while a large page is segmented', async () => {
    const s = service();
    let parsing = false;
    let turns = 0;
    const segmenter: MarkdownSegmenter = async (markdown) => {
      parsing = true;
      try {
        return await s.segments(markdown);
      } finally {
        parsing = false;
      }
    };
    // A callback on every turn of the loop, counting the turns taken while the page is in the worker.
    let ticking = true;
    const tick = () => {
      if (parsing) turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const large = largePage(190, 190_000);
      const result = await translate([{ id: 'large', text: { title: 'Large', markdown: large } }], { segmenter });
      expect(result.pages.get('large')!.markdown).not.toBe(large);
    } finally {
      ticking = false;
    }
    expect(s.stats().tasks).toBe(1);
    // On the calling thread the parse is one synchronous call: no turn could be taken during it.
    expect(turns).toBeGreaterThan(1);
  });

  it('stops segmenting when the run is cancelled', async () => {
    const s = service();
    const controller = new AbortController();
    const pages = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      text: { title: `Page ${i}`, markdown: largePage(200 + i, 20_000) },
    }));
    const segmenter: MarkdownSegmenter = async (markdown) => {
      const answer = await s.segments(markdown);
      controller.abort();
      return answer;
    };
    await expect(translate(pages, { segmenter, signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    // The lanes in flight finish their page; none starts another.
    expect(s.stats().tasks).toBeLessThanOrEqual(2);
  });
});
