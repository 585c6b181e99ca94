import { Worker } from 'node:worker_threads';
import type { SpecError } from '../store/openapi-specs';

/** GitBook's OpenAPISpecProcessingErrorCode. */
export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** A processing that failed, with GitBook's code and whether trying again may help. */
export class SpecProcessError extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    message: string,
    readonly retryable = false,
    readonly errors: SpecError[] = [{ message, code }],
    readonly count = errors.length,
  ) {
    super(message);
    this.name = 'SpecProcessError';
  }
}

/** A parsed, bundled and validated specification. */
export interface ParsedSpec {
  format: 'json' | 'yaml';
  /** `openapi` or `swagger` of the entry document (3.1.0, 3.0.3, 2.0…). */
  specVersion: string;
  /** JSON of the version's filesystem ({filename: {dir, isEntrypoint, references, filename, specification}}). */
  filesystem: string;
  /** JSON of the whole specification with its external $refs inlined. */
  bundle: string;
  /** SHA-256 of `filesystem`. */
  hash: string;
}

export interface ParseLimits {
  /** External files a specification may reference (each fetched once). */
  maxFiles: number;
  /** Characters of the entry and its external files together. */
  maxTotalBytes: number;
  /** Longest the worker may take, fetches included; then it is terminated (PARSE_ERROR). */
  timeoutMs: number;
  /** Heap of the worker (MB): a specification that needs more fails instead of growing the server. */
  heapMb: number;
}

export const PARSE_LIMITS: ParseLimits = {
  maxFiles: 50,
  maxTotalBytes: 20 * 1024 * 1024,
  timeoutMs: 120_000,
  heapMb: 512,
};

const WORKER_URL = new URL('./parse-worker.mjs', import.meta.url);

type WorkerAnswer =
  | { type: 'fetch'; id: number; url: string }
  | ({ type: 'result'; ok: true } & ParsedSpec)
  | {
      type: 'result';
      ok: false;
      code: ProcessErrorCode;
      message: string;
      retryable: boolean;
      errors: SpecError[];
      count: number;
    };

/**
 * Parses, bundles and validates a specification in a worker thread of its own (parse-worker.mjs):
 * `entryText` fetched from `entryUrl` (null for a text given directly). The worker asks for each
 * external $ref through `fetchText`, which must go through the outbound fetcher and throw
 * SpecProcessError (FETCH_TIMEOUT / FETCH_ERROR). Throws SpecProcessError; `signal` ends the worker.
 */
export function parseSpecification(
  input: { entryUrl: string | null; entryText: string },
  fetchText: (url: string) => Promise<string>,
  options: { limits?: Partial<ParseLimits>; signal?: AbortSignal } = {},
): Promise<ParsedSpec> {
  const limits = { ...PARSE_LIMITS, ...options.limits };
  return new Promise<ParsedSpec>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: {
        entryUrl: input.entryUrl,
        entryText: input.entryText,
        maxFiles: limits.maxFiles,
        maxTotalBytes: limits.maxTotalBytes,
      },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
      // The parent's flags (--import tsx, a debugger port) are not the worker's business.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (err: Error | undefined, value?: ParsedSpec) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new SpecProcessError(
            'PARSE_ERROR',
            `The specification could not be processed within ${Math.round(limits.timeoutMs / 1000)} s`,
          ),
        ),
      limits.timeoutMs,
    );
    timer.unref();
    const onAbort = () =>
      finish(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('aborted'));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    worker.on('message', (m: WorkerAnswer) => {
      if (m.type === 'fetch') {
        fetchText(m.url).then(
          (text) => !settled && worker.postMessage({ type: 'fetched', id: m.id, ok: true, text }),
          (err: unknown) => {
            const e =
              err instanceof SpecProcessError
                ? err
                : new SpecProcessError('FETCH_ERROR', err instanceof Error ? err.message : String(err));
            if (!settled)
              worker.postMessage({
                type: 'fetched',
                id: m.id,
                ok: false,
                code: e.code,
                message: e.message,
                retryable: e.retryable,
              });
          },
        );
        return;
      }
      if (m.ok)
        finish(undefined, {
          format: m.format,
          specVersion: m.specVersion,
          filesystem: m.filesystem,
          bundle: m.bundle,
          hash: m.hash,
        });
      else finish(new SpecProcessError(m.code, m.message, m.retryable, m.errors, m.count));
    });
    worker.on('error', (err) => {
      const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(
        new SpecProcessError(
          'PARSE_ERROR',
          outOfMemory
            ? 'The specification is too large to process'
            : `The specification could not be processed: ${err.message}`,
        ),
      );
    });
    worker.on('exit', (code) =>
      finish(new SpecProcessError('PARSE_ERROR', `The specification could not be processed (exit ${code})`)),
    );
  });
}
