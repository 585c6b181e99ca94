import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllowList } from '../../sync-server/outbound';
import {
  engineFrom,
  requireEngine,
  translatePages,
  TranslateError,
  type EngineSettings,
  type RetryPolicy,
  type TranslatePagesOptions,
  type TranslationEngine,
  type TranslationMemory,
} from '../../sync-server/translation';
import {
  fakeTranslate,
  startLibreTranslateStandIn,
  startOpenAiStandIn,
  type LibreTranslateStandIn,
  type OpenAiStandIn,
  RICH_MARKDOWN,
  verbatimParts,
} from '../helpers/translate-engines';

/**
 * The engines against stand-ins over real HTTP (127.0.0.1, allowed as FOLIO_OUTBOUND_ALLOW would):
 * batching, the glossary, the prompt, the structure check and its retries, transient failures,
 * refusals, the translation memory and cancellation.
 */

const allow = parseAllowList('127.0.0.1');
/** Backoff in milliseconds, so retries cost the tests nothing. */
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };
const KEY = 'sk-secret-key-123';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function libreStandIn(
  options?: Parameters<typeof startLibreTranslateStandIn>[0],
): Promise<LibreTranslateStandIn> {
  const standIn = await startLibreTranslateStandIn(options);
  open.push(standIn);
  return standIn;
}

async function openAiStandIn(options?: Parameters<typeof startOpenAiStandIn>[0]): Promise<OpenAiStandIn> {
  const standIn = await startOpenAiStandIn(options);
  open.push(standIn);
  return standIn;
}

function engine(settings: EngineSettings, retry: Partial<RetryPolicy> = FAST): TranslationEngine {
  return engineFrom(settings, { allow, retry })!;
}

const libre = (standIn: { url: string }, key?: string) => engine({ engine: 'libretranslate', url: standIn.url, key });
const openAi = (standIn: { url: string }, key?: string) =>
  engine({ engine: 'openai', url: `${standIn.url}/v1`, key, model: 'gpt-test' });

function run(
  translator: TranslationEngine,
  pages: { id: string; text: { title: string; description?: string; markdown?: string } }[],
  options: Partial<TranslatePagesOptions> = {},
) {
  return translatePages(translator, pages, {
    from: 'en',
    to: 'fr',
    glossary: [],
    signal: new AbortController().signal,
    ...options,
  });
}

function mapMemory(): TranslationMemory & { entries: Map<string, string>; puts: number } {
  const entries = new Map<string, string>();
  return {
    entries,
    puts: 0,
    async get(keys) {
      return new Map(keys.filter((k) => entries.has(k)).map((k) => [k, entries.get(k)!]));
    },
    async put(batch) {
      this.puts++;
      for (const [k, v] of batch) entries.set(k, v);
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<TranslateError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TranslateError);
  return err as TranslateError;
}

const PAGE = {
  id: 'page1',
  text: {
    title: 'Getting started',
    description: 'How to begin',
    markdown: '# Install\n\nRun `npm install` and read [the guide](/pages/abc "Guide").\n\n```sh\nnpm test\n```\n',
  },
};
const EXPECTED = {
  title: '[fr]Getting [fr]started',
  description: '[fr]How [fr]to [fr]begin',
  markdown:
    '# [fr]Install\n\n[fr]Run `npm install` [fr]and [fr]read [[fr]the [fr]guide](/pages/abc "Guide").\n\n```sh\nnpm test\n```\n',
};

/** A page of `count` distinct paragraphs. */
const manyParagraphs = (count: number, words = 'Paragraph number') => ({
  id: 'many',
  text: { title: '', markdown: Array.from({ length: count }, (_, i) => `${words} ${i + 1}.`).join('\n\n') },
});

describe('LibreTranslate engine', () => {
  it('translates title, description and markdown as HTML with placeholders kept out of translation', async () => {
    const standIn = await libreStandIn();
    const result = await run(libre(standIn), [PAGE]);
    expect(result.pages.get('page1')).toEqual(EXPECTED);
    expect(standIn.requests).toHaveLength(1);
    const request = standIn.requests[0]!;
    expect(request).toMatchObject({ source: 'en', target: 'fr', format: 'html' });
    expect(request.q).toContain(
      'Run <span translate="no">⟦1⟧</span> and read <span translate="no">⟦2⟧</span>the guide<span translate="no">⟦3⟧</span>.',
    );
    expect(request.api_key).toBeUndefined();
    expect(result.segmentsSent).toBe(4);
    expect(result.words).toBe(2 + 3 + 1 + 5);
    expect(libre(standIn).supportsInstructions).toBe(false);
  });

  it('batches by count: 120 paragraphs take 5 calls of at most 25', async () => {
    const standIn = await libreStandIn();
    const result = await run(libre(standIn), [manyParagraphs(120)]);
    expect(standIn.requests.map((r) => r.q.length)).toEqual([25, 25, 25, 25, 20]);
    expect(result.pages.get('many')!.markdown!.split('\n\n')[119]).toBe('[fr]Paragraph [fr]number 120.');
  });

  it('batches by characters: a long paragraph goes alone', async () => {
    const standIn = await libreStandIn();
    await run(libre(standIn), [manyParagraphs(4, 'word '.repeat(600))]);
    expect(standIn.requests.map((r) => r.q.length)).toEqual([1, 1, 1, 1]);
  });

  it("maps GitBook's language codes to the ones the server lists", async () => {
    const local = await libreStandIn();
    await run(libre(local), [PAGE], { to: 'pt-br' });
    expect(local.requests[0]).toMatchObject({ target: 'pb' });
    const hosted = await libreStandIn({ languages: ['en', 'zh-Hans', 'zh-Hant'] });
    await run(libre(hosted), [PAGE], { to: 'zh-tw' });
    expect(hosted.requests[0]).toMatchObject({ target: 'zh-Hant' });
    const unlisted = await libreStandIn({ listLanguages: false });
    await run(libre(unlisted), [PAGE], { to: 'no' });
    expect(unlisted.requests[0]).toMatchObject({ target: 'nb' });
  });

  it('refuses a language the server does not offer before sending any text', async () => {
    const standIn = await libreStandIn();
    const err = await failure(run(libre(standIn), [PAGE], { to: 'yue' }));
    expect(err.code).toBe('ENGINE_REFUSED');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('Cantonese (yue)');
    expect(standIn.requests).toHaveLength(0);
  });

  it('sends the key, and a refused key is ENGINE_REFUSED at once, without the key in the message', async () => {
    const standIn = await libreStandIn({ requireKey: KEY });
    await run(libre(standIn, KEY), [PAGE]);
    expect(standIn.requests[0]!.api_key).toBe(KEY);
    const wrong = 'lt-wrong-key-456';
    const err = await failure(run(libre(standIn, wrong), [PAGE]));
    expect(err).toMatchObject({ code: 'ENGINE_REFUSED', retryable: false });
    expect(err.message).toContain('403');
    expect(err.message).not.toContain(wrong);
    expect(standIn.requests).toHaveLength(2);
  });

  it('retries 503 with backoff and succeeds', async () => {
    const standIn = await libreStandIn();
    standIn.failNext(2, 503);
    const result = await run(libre(standIn), [PAGE]);
    expect(result.pages.get('page1')).toEqual(EXPECTED);
    expect(standIn.requests).toHaveLength(3);
    expect(result.segmentsSent).toBe(4);
  });

  it('gives up after the last attempt with a retryable ENGINE_ERROR', async () => {
    const standIn = await libreStandIn();
    standIn.failNext(10, 429);
    const err = await failure(
      translatePages(engine({ engine: 'libretranslate', url: standIn.url }, { ...FAST, maxAttempts: 3 }), [PAGE], {
        from: 'en',
        to: 'fr',
        glossary: [],
        signal: new AbortController().signal,
      }),
    );
    expect(err).toMatchObject({ code: 'ENGINE_ERROR', retryable: true });
    expect(standIn.requests).toHaveLength(3);
  });
});

describe('OpenAI-compatible engine', () => {
  it('translates with a system prompt holding the rules, the glossary and the instructions', async () => {
    const standIn = await openAiStandIn({ requireKey: KEY });
    const result = await run(openAi(standIn, KEY), [PAGE], {
      instructions: 'Use the formal "vous".',
      glossary: [{ translations: { en: 'guide', fr: 'manuel' } }],
    });
    expect(result.pages.get('page1')!.markdown).toContain(
      '[fr]Run `npm install` [fr]and [fr]read [[fr]the manuel](/pages/abc "Guide").',
    );
    const request = standIn.requests[0]!;
    expect(request).toMatchObject({ model: 'gpt-test', temperature: 0, response_format: { type: 'json_object' } });
    const prompt = standIn.systemPrompts[0]!;
    expect(prompt).toContain('Use the formal "vous".');
    expect(prompt).toContain('"guide" → "manuel"');
    expect(prompt).toContain('from English (en) to French (fr)');
    expect(prompt).toMatch(/Keep every placeholder/);
    const user = JSON.parse(request.messages[1]!.content) as { segments: Record<string, string> };
    expect(Object.values(user.segments)).toContain('Run ⟦1⟧ and read ⟦2⟧the ⟦4⟧⟦3⟧.');
    expect(openAi(standIn).supportsInstructions).toBe(true);
  });

  it('batches by count: 120 paragraphs take 3 calls of at most 50', async () => {
    const standIn = await openAiStandIn();
    await run(openAi(standIn), [manyParagraphs(120)]);
    const sizes = standIn.requests.map((r) => Object.keys(JSON.parse(r.messages[1]!.content).segments).length);
    expect(sizes).toEqual([50, 50, 20]);
  });

  it('asks again for a segment whose answer lost a placeholder, and succeeds', async () => {
    const standIn = await openAiStandIn();
    standIn.breakStructure(1);
    const result = await run(openAi(standIn), [PAGE]);
    expect(result.pages.get('page1')).toEqual(EXPECTED);
    expect(standIn.requests).toHaveLength(2);
    expect(Object.keys(JSON.parse(standIn.requests[1]!.messages[1]!.content).segments)).toHaveLength(1);
    expect(result.segmentsSent).toBe(4);
  });

  it('fails with STRUCTURE_BROKEN naming the page when the answers stay broken', async () => {
    const standIn = await openAiStandIn();
    standIn.breakStructure(3);
    const memory = mapMemory();
    const err = await failure(run(openAi(standIn), [PAGE], { memory }));
    expect(err).toMatchObject({ code: 'STRUCTURE_BROKEN', retryable: false });
    expect(err.message).toContain('"Getting started" (page1)');
    expect(err.message).toContain('Run ⟦1⟧ and read');
    expect(standIn.requests).toHaveLength(3);
    // What passed the check was kept: only the broken segment is missing from the memory.
    expect(memory.entries.size).toBe(3);
  });

  it('refuses a wrong key at once, without the key in the message', async () => {
    const standIn = await openAiStandIn({ requireKey: KEY });
    const wrong = 'sk-wrong-key-789';
    const err = await failure(run(openAi(standIn, wrong), [PAGE]));
    expect(err).toMatchObject({ code: 'ENGINE_REFUSED', retryable: false });
    expect(err.message).toContain('401');
    expect(err.message).toContain('FOLIO_TRANSLATE_KEY');
    expect(err.message).not.toContain(wrong);
    expect(standIn.requests).toHaveLength(1);
  });

  it('retries 503 twice, then succeeds', async () => {
    const standIn = await openAiStandIn();
    standIn.failNext(2, 503);
    const result = await run(openAi(standIn), [PAGE]);
    expect(result.pages.get('page1')).toEqual(EXPECTED);
    expect(standIn.requests).toHaveLength(3);
  });
});

describe('a translation run', () => {
  it('enforces the glossary, keeping a term that has no target', async () => {
    const standIn = await libreStandIn();
    const page = { id: 'g', text: { title: 'Workspace basics', markdown: 'Each workspace belongs to Folio.\n' } };
    const result = await run(libre(standIn), [page], {
      glossary: [
        { translations: { en: 'workspace', fr: 'espace de travail' } },
        { translations: { en: 'Folio', de: 'Folio' } },
      ],
    });
    expect(result.pages.get('g')).toEqual({
      title: 'Espace de travail [fr]basics',
      markdown: '[fr]Each espace de travail [fr]belongs [fr]to Folio.\n',
    });
  });

  it('sends nothing the memory already holds, and nothing twice within a run', async () => {
    const standIn = await libreStandIn();
    const memory = mapMemory();
    const twin = { id: 'twin', text: { ...PAGE.text } };
    const first = await run(libre(standIn), [PAGE, twin], { memory });
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]!.q).toHaveLength(4);
    expect(first.pages.get('twin')).toEqual(EXPECTED);
    expect(memory.entries.size).toBe(4);

    const progress: unknown[] = [];
    const again = await run(libre(standIn), [PAGE], { memory, onProgress: (p) => void progress.push(p) });
    expect(standIn.requests).toHaveLength(1);
    expect(again).toMatchObject({ words: 0, segmentsSent: 0 });
    expect(again.pages.get('page1')).toEqual(EXPECTED);
    expect(progress).toEqual([{ pages: 1, segments: 4, totalSegments: 4 }]);

    const edited = { id: 'page1', text: { ...PAGE.text, markdown: PAGE.text.markdown + '\nA new paragraph.\n' } };
    const third = await run(libre(standIn), [edited], { memory });
    expect(standIn.requests).toHaveLength(2);
    expect(standIn.requests[1]!.q).toEqual(['A new paragraph.']);
    expect(third).toMatchObject({ words: 3, segmentsSent: 1 });
  });

  it('keeps whitespace-only and placeholder-only text away from the engine, and an empty description absent', async () => {
    const standIn = await libreStandIn();
    const page = { id: 'p', text: { title: 'Title', description: '', markdown: '```\ncode\n```\n\n`x`\n\n   \n' } };
    const result = await run(libre(standIn), [page]);
    expect(standIn.requests.map((r) => r.q)).toEqual([['Title']]);
    expect(result.pages.get('p')).toEqual({ title: '[fr]Title', markdown: page.text.markdown });
  });

  it('keeps the markdown of a page nested too deeply to parse, translates its title, and says so', async () => {
    const standIn = await libreStandIn();
    const markdown = `${'>'.repeat(150)} deep\n`;
    const result = await run(libre(standIn), [{ id: 'deep', text: { title: 'Deep', markdown } }]);
    expect(result.pages.get('deep')).toEqual({ title: '[fr]Deep', markdown });
    expect(result.untranslated).toEqual([{ pageId: 'deep', reason: expect.stringContaining('nests') }]);
  });

  it('reports progress after each call, page by page', async () => {
    const standIn = await openAiStandIn();
    const pages = [
      { id: 'a', text: manyParagraphs(50).text },
      { id: 'b', text: { title: 'Second page' } },
    ];
    const progress: { pages: number; segments: number; totalSegments: number }[] = [];
    await run(openAi(standIn), pages, { onProgress: (p) => void progress.push(p) });
    expect(progress).toEqual([
      { pages: 0, segments: 0, totalSegments: 51 },
      { pages: 1, segments: 50, totalSegments: 51 },
      { pages: 2, segments: 51, totalSegments: 51 },
    ]);
  });

  it('stops when the signal aborts between calls', async () => {
    const standIn = await libreStandIn();
    const controller = new AbortController();
    const err = await failure(
      run(libre(standIn), [manyParagraphs(60)], {
        signal: controller.signal,
        onProgress: ({ segments }) => {
          if (segments > 0) controller.abort();
        },
      }),
    );
    expect(err).toMatchObject({ code: 'ABORTED', retryable: false });
    expect(standIn.requests).toHaveLength(1);
  });

  it('stops a call in flight when the signal aborts', async () => {
    const standIn = await openAiStandIn();
    standIn.stall(1);
    const controller = new AbortController();
    const pending = run(openAi(standIn), [PAGE], { signal: controller.signal });
    while (standIn.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect(await failure(pending)).toMatchObject({ code: 'ABORTED' });
  });

  it('reports an engine that cannot be reached, or that the server may not connect to', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const down = engine({ engine: 'libretranslate', url: `http://127.0.0.1:${port}` }, { ...FAST, maxAttempts: 2 });
    expect(await failure(run(down, [PAGE]))).toMatchObject({ code: 'ENGINE_UNREACHABLE', retryable: true });

    const standIn = await libreStandIn();
    const refused = engineFrom(
      { engine: 'libretranslate', url: standIn.url },
      { allow: parseAllowList(''), retry: FAST },
    )!;
    const err = await failure(run(refused, [PAGE]));
    expect(err).toMatchObject({ code: 'ENGINE_UNREACHABLE', retryable: false });
    expect(err.message).toContain('FOLIO_OUTBOUND_ALLOW');
    expect(standIn.requests).toHaveLength(0);
  });

  it('has no engine when none is configured', () => {
    expect(engineFrom({ engine: undefined }, { allow })).toBeUndefined();
    expect(engineFrom({ engine: 'openai', url: 'https://api.example.com/v1' }, { allow })).toBeUndefined();
    expect(engineFrom({ engine: 'libretranslate', url: 'https://lt.example.com' }, { allow })?.kind).toBe(
      'libretranslate',
    );
    let err: unknown;
    try {
      requireEngine({ engine: undefined }, { allow });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'NO_ENGINE', retryable: false });
    expect((err as Error).message).toContain('FOLIO_TRANSLATE_URL');
  });

  it('keeps code, link targets, tags, HTML, math and front matter of a rich page byte-exact through both engines', async () => {
    const page = { id: 'rich', text: { title: 'Rich', markdown: RICH_MARKDOWN } };
    for (const translator of [libre(await libreStandIn()), openAi(await openAiStandIn())]) {
      const markdown = (await run(translator, [page])).pages.get('rich')!.markdown!;
      expect(verbatimParts(markdown)).toEqual(verbatimParts(RICH_MARKDOWN));
      expect(markdown).toContain(
        '{% hint style="info" %}\n[fr]A [fr]hint [fr]written **[fr]without** [fr]blank [fr]lines.\n{% endhint %}',
      );
      expect(markdown).toContain("| `id` | [fr]The [fr]page'[fr]s [fr]id \\| [fr]with [fr]an [fr]escaped [fr]pipe |");
    }
  });

  it('the stand-ins translate with the exported transform', () => {
    expect(fakeTranslate('Hello ⟦1⟧ world', 'de')).toBe('[de]Hello ⟦1⟧ [de]world');
  });
});
