import { createHash } from 'node:crypto';
import type { MarkdownAnalysis } from '../../shared/markdown/analyze';
import { degradedAnalysis, degradedDocument, type Degradation } from '../../shared/markdown/degraded';
import type { JSONDocument } from '../../shared/markdown/document-types';
import { checkMarkdownLimits, MARKDOWN_LIMITS, type MarkdownLimits } from '../../shared/markdown/limits';
import type { MarkdownSegmentation } from '../../shared/markdown/translation/markdown-segments';
import { Lru } from '../store/lru';
import { ParsePool, type ParsePoolOptions } from './pool';
import type { SiteBody } from './site-html';
import type { PageBlocks, PdfBlocks, TaskKind, TaskOutputs } from './tasks';

/** The PDF renderer's input: blocks, or the text to print as is. */
export type PdfBody = PdfBlocks | { degraded: Degradation; text: string };

/** A page's top-level blocks, or why it has none to name (its document is then one degraded code block). */
export type BlocksBody = PageBlocks | { degraded: Degradation };

/** Settings of the markdown service. */
export interface MarkdownServiceOptions extends ParsePoolOptions {
  limits?: Readonly<MarkdownLimits>;
  /** Byte budget of cached results (UTF-16 code units of their JSON, roughly). */
  cacheWeight?: number;
  /** Told once per text that could not be formatted in time or at all. */
  onDegraded?(degraded: Degradation, info: { kind: TaskKind; length: number; error?: unknown }): void;
}

/** Counters, for metrics and tests. */
export interface MarkdownStats {
  /** Tasks handed to the pool. */
  tasks: number;
  /** Of those, ended by the time budget. */
  timeouts: number;
  /** Of those, failed (out of memory, stack overflow in a worker). */
  errors: number;
  /** Texts refused by the limits without parsing. */
  refused: number;
  /** Answers served from the result cache. */
  cacheHits: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * All markdown parsing the server does on behalf of requests and revisions:
 * search/link analysis, GitBook documents, published-site HTML, PDF
 * blocks and translation segments. Nothing is parsed on the event loop:
 * 1. text over the limits (shared/markdown/limits.ts: size, nesting, table
 *    columns) is not parsed at all: it gets the degraded form (preformatted,
 *    marked; shared/markdown/degraded.ts);
 * 2. the rest is parsed in the worker pool, within a time budget; a text that
 *    runs out of time (or fails) is remembered as too complex and degraded;
 * 3. results are cached by the SHA-256 of the text (and the kind of work), so
 *    a text is parsed once for each use however many revisions, URLs,
 *    requests or processes' worth of pages repeat it, and concurrent requests
 *    for the same text share one parse.
 * One instance per server (AppContext.markdown); close() stops the workers.
 */
export class MarkdownService {
  private readonly pool: ParsePool;
  private readonly limits: Readonly<MarkdownLimits>;
  private readonly results: Lru<string, { value: unknown; weight: number }>;
  /** Texts (by hash) that ran out of time or failed: never handed to the pool again. */
  private readonly tooComplex = new Lru<string, Degradation>(10_000);
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly counters: MarkdownStats = { tasks: 0, timeouts: 0, errors: 0, refused: 0, cacheHits: 0 };
  private closed = false;

  constructor(private readonly options: MarkdownServiceOptions) {
    this.pool = new ParsePool(options);
    this.limits = options.limits ?? MARKDOWN_LIMITS;
    this.results = new Lru(50_000, { maxWeight: options.cacheWeight ?? 64 * 1024 * 1024, weigh: (r) => r.weight });
  }

  /** Links and sections of a page (search index, link listings). */
  analysis(markdown: string): Promise<MarkdownAnalysis> {
    return this.get('analysis', markdown);
  }

  /** The page as a GitBook JSONDocument (`format=document`, comment bodies). */
  document(markdown: string): Promise<JSONDocument> {
    return this.get('document', markdown);
  }

  /** Sanitized HTML of the page for published sites, links still to be rewritten. */
  site(markdown: string): Promise<SiteBody> {
    return this.get('site', markdown);
  }

  /** Blocks of the page for the PDF renderer. */
  pdf(markdown: string): Promise<PdfBody> {
    return this.get('pdf', markdown) as Promise<PdfBody>;
  }

  /** Top-level blocks of the page with their keys (shared/markdown/block-keys.ts). */
  blocks(markdown: string): Promise<BlocksBody> {
    return this.get('blocks', markdown) as Promise<BlocksBody>;
  }

  /**
   * The page cut into segments for a translation engine (shared/markdown/translation/), or why it is
   * kept untranslated: over a limit, nested too deeply, or too slow to parse within the budget.
   */
  segments(markdown: string): Promise<MarkdownSegmentation> {
    return this.get('segments', markdown);
  }

  /** Counters since start, plus the tasks running now and the live worker threads. */
  stats(): MarkdownStats & { running: number; threads: number } {
    return { ...this.counters, running: this.pool.busy, threads: this.pool.threads };
  }

  /** Stops the workers; later calls answer degraded forms. */
  close(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }

  private get<K extends TaskKind>(kind: K, markdown: string): Promise<TaskOutputs[K]> {
    const hash = sha256(markdown);
    const key = `${kind}:${hash}`;
    const hit = this.results.get(key);
    if (hit) {
      this.counters.cacheHits++;
      return Promise.resolve(hit.value as TaskOutputs[K]);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<TaskOutputs[K]>;
    const made = this.make(kind, markdown, hash).then((r) => {
      this.results.set(key, r);
      return r.value as TaskOutputs[K];
    });
    this.inFlight.set(key, made);
    void made.finally(() => this.inFlight.delete(key)).catch(() => undefined);
    return made;
  }

  private async make(kind: TaskKind, markdown: string, hash: string): Promise<{ value: unknown; weight: number }> {
    const breach = checkMarkdownLimits(markdown, this.limits);
    if (breach) this.counters.refused++;
    const known = breach ?? this.tooComplex.get(hash);
    if (known) return degraded(kind, markdown, known);
    this.counters.tasks++;
    const outcome = await this.pool.run({ kind, markdown });
    if (outcome.ok) return { value: outcome.value, weight: outcome.weight };
    // Shutting down: the text is not to blame.
    if (this.closed) return degraded(kind, markdown, { reason: 'error', message: 'the server is stopping' });
    const reason = outcome.reason;
    this.counters[reason === 'timeout' ? 'timeouts' : 'errors']++;
    const why: Degradation =
      reason === 'timeout'
        ? { reason, message: `formatting it took longer than ${this.options.timeoutMs} ms` }
        : { reason, message: 'it could not be formatted' };
    this.tooComplex.set(hash, why);
    this.options.onDegraded?.(why, { kind, length: markdown.length, error: outcome.error });
    return degraded(kind, markdown, why);
  }
}

/** The degraded result of `kind` (linear in the text; no parsing). */
async function degraded(
  kind: TaskKind,
  markdown: string,
  why: Degradation,
): Promise<{ value: unknown; weight: number }> {
  const weight = 2 * markdown.length + 200;
  switch (kind) {
    case 'analysis':
      return { value: degradedAnalysis(markdown), weight };
    case 'document':
      return { value: degradedDocument(markdown, why), weight: 4 * weight };
    case 'site':
      // site-html brings the whole HTML toolchain (hast, shiki, KaTeX): loaded on first use, not at boot.
      return { value: (await import('./site-html')).degradedSiteBody(markdown, why), weight };
    case 'pdf':
      return { value: { degraded: why, text: markdown } satisfies PdfBody, weight };
    case 'blocks':
      return { value: { degraded: why } satisfies BlocksBody, weight: 200 };
    case 'segments':
      return { value: { untranslated: why.message } satisfies MarkdownSegmentation, weight: 200 };
  }
}
