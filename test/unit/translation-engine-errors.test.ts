import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllowList } from '../../sync-server/outbound';
import { engineFrom, TranslateError, translatePages, type RetryPolicy } from '../../sync-server/translation';
import { backoffDelay } from '../../sync-server/translation/retry';
import {
  startLibreTranslateStandIn,
  startOpenAiStandIn,
  type LibreTranslateStandIn,
  type OpenAiStandIn,
} from '../helpers/translate-engines';

/**
 * What an engine says when it refuses or fails, as the run's error: its own error text quoted
 * (LibreTranslate's `{"error": "…"}`, OpenAI's `{"error": {"message": "…"}}`), never the API key
 * even when the engine echoes it, short and on one line; and its Retry-After, honoured up to the
 * retry policy's cap. Stand-ins over real HTTP on 127.0.0.1.
 */

const allow = parseAllowList('127.0.0.1');
const FAST: Partial<RetryPolicy> = { baseDelayMs: 1, maxDelayMs: 5 };
const ONCE: Partial<RetryPolicy> = { ...FAST, maxAttempts: 1 };
const KEY = 'sk-live-0123456789abcdef';
const PAGE = { id: 'p', text: { title: 'Getting started', markdown: 'Read the guide.\n' } };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function libreStandIn(options?: Parameters<typeof startLibreTranslateStandIn>[0]) {
  const standIn: LibreTranslateStandIn = await startLibreTranslateStandIn(options);
  open.push(standIn);
  return standIn;
}

async function openAiStandIn(options?: Parameters<typeof startOpenAiStandIn>[0]) {
  const standIn: OpenAiStandIn = await startOpenAiStandIn(options);
  open.push(standIn);
  return standIn;
}

const libre = (url: string, retry: Partial<RetryPolicy>, key?: string) =>
  engineFrom({ engine: 'libretranslate', url, key }, { allow, retry })!;
const openAi = (url: string, retry: Partial<RetryPolicy>, key?: string) =>
  engineFrom({ engine: 'openai', url: `${url}/v1`, key, model: 'gpt-test' }, { allow, retry })!;

async function failure(engine: ReturnType<typeof libre>): Promise<TranslateError> {
  const err = await translatePages(engine, [PAGE], {
    from: 'en',
    to: 'fr',
    glossary: [],
    signal: new AbortController().signal,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TranslateError);
  return err as TranslateError;
}

describe("the engine's own words", () => {
  it("quotes LibreTranslate's error in ENGINE_REFUSED", async () => {
    const standIn = await libreStandIn();
    standIn.failNext(1, 400, {}, 'fr is not a supported target language for en');
    const err = await failure(libre(standIn.url, FAST));
    expect(err).toMatchObject({ code: 'ENGINE_REFUSED', retryable: false });
    expect(err.message).toBe(
      `LibreTranslate at ${standIn.url} refused the request with 400: fr is not a supported target language for en`,
    );
  });

  it("quotes OpenAI's error message, the echoed key blanked out", async () => {
    const standIn = await openAiStandIn({ requireKey: 'sk-the-right-one-000' });
    const err = await failure(openAi(standIn.url, FAST, KEY));
    expect(err).toMatchObject({ code: 'ENGINE_REFUSED', retryable: false });
    // The stand-in answers as OpenAI does: "Incorrect API key provided: <the key>."
    expect(err.message).toContain('refused the request with 401: Incorrect API key provided: [key].');
    expect(err.message).toContain('(check FOLIO_TRANSLATE_KEY)');
    expect(err.message).not.toContain(KEY);
  });

  it('never leaves a part of the key, however long the text around it or however it is encoded', async () => {
    const standIn = await libreStandIn();
    const key = 'lt key/with+odd=chars 42';
    standIn.failNext(1, 403, {}, `${'Refused. '.repeat(32)}${key}`);
    standIn.failNext(1, 403, {}, `Refused ${encodeURIComponent(key)}`);
    for (let i = 0; i < 2; i++) {
      const err = await failure(libre(standIn.url, FAST, key));
      expect(err.code).toBe('ENGINE_REFUSED');
      // Blanked out before the text was cut to length: not even the key's first characters remain.
      expect(err.message).not.toContain(key.slice(0, 6));
      expect(err.message).not.toContain(encodeURIComponent(key).slice(0, 6));
    }
  });

  it('keeps the text short and on one line', async () => {
    const standIn = await libreStandIn();
    standIn.failNext(1, 400, {}, `Line one\nline two\u0007 ${'long '.repeat(200)}`);
    const err = await failure(libre(standIn.url, FAST));
    expect(err.message).toContain(': Line one line two long long');
    expect(err.message).not.toMatch(/\p{Cc}/u);
    expect(err.message.length).toBeLessThan(450);
    expect(err.message.endsWith('…')).toBe(true);
  });

  it("quotes a short plain-text answer, but not a proxy's HTML error page", async () => {
    const answers = [
      { type: 'text/plain', body: 'upstream model is loading' },
      { type: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>' },
    ];
    const server = http.createServer((req, res) => {
      // No language list (the run then uses the usual codes); each translation call gets the next answer.
      if (req.method === 'GET') return void res.writeHead(404).end();
      const answer = answers.shift()!;
      res.writeHead(answer.type === 'text/html' ? 502 : 400, { 'content-type': answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const engine = engineFrom({ engine: 'libretranslate', url }, { allow, retry: ONCE })!;
    expect((await failure(engine)).message).toBe(
      `LibreTranslate at ${url} refused the request with 400: upstream model is loading`,
    );
    const proxied = await failure(engine);
    expect(proxied).toMatchObject({ code: 'ENGINE_ERROR', retryable: true });
    expect(proxied.message).toBe(`LibreTranslate at ${url} answered 502`);
  });
});

describe('Retry-After', () => {
  it("is read from a 429 or a 503 and said in the run's error", async () => {
    const standIn = await openAiStandIn();
    standIn.failNext(1, 429, { 'retry-after': '7' }, 'Rate limit reached for requests');
    const limited = await failure(openAi(standIn.url, ONCE));
    expect(limited).toMatchObject({ code: 'ENGINE_ERROR', retryable: true, retryAfterMs: 7_000 });
    expect(limited.message).toContain('answered 429: Rate limit reached for requests (it asked to wait 7 s)');

    const date = new Date(Date.now() + 60_000).toUTCString();
    standIn.failNext(1, 503, { 'retry-after': date });
    const unavailable = await failure(openAi(standIn.url, ONCE));
    expect(unavailable.retryAfterMs).toBeGreaterThan(50_000);
    expect(unavailable.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('is waited for up to the cap: an engine asking for an hour does not hold the run an hour', async () => {
    const standIn = await libreStandIn();
    standIn.failNext(2, 429, { 'retry-after': '3600' });
    const result = await translatePages(libre(standIn.url, FAST), [PAGE], {
      from: 'en',
      to: 'fr',
      glossary: [],
      signal: new AbortController().signal,
    });
    expect(result.pages.get('p')!.title).toBe('[fr]Getting [fr]started');
    expect(standIn.requests).toHaveLength(3);
  });

  it('sets the wait before the next call: at least what the engine asked, at most the cap', () => {
    const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000 };
    const noJitter = () => 0;
    expect(backoffDelay(policy, 1, undefined, noJitter)).toBe(500);
    expect(backoffDelay(policy, 1, 7_000, noJitter)).toBe(7_000);
    expect(backoffDelay(policy, 1, 3_600_000, noJitter)).toBe(30_000);
  });
});
