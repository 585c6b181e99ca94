import type { Clock } from '../clock';
import { newId } from '../http/ids';
import { JobError, type JobKind } from '../jobs/runner';
import { fetchOutbound, OutboundError, parseAllowList, type AllowList } from '../outbound';
import type { Db } from '../store/db';
import { addVersionIfChanged, findSpecById, reportSpecProcessing } from '../store/openapi-specs';
import { parseSpecification, SpecProcessError, type ParseLimits } from './parse';

/** The job kind that processes a spec's new source (subject `openapi:<specId>`: one run per spec at a time). */
export const OPENAPI_SPEC_JOB = 'openapi-spec-process';

/** What a processing job is given: the spec and the source to read. */
export interface ProcessPayload {
  specId: string;
  source: { url: string } | { text: string };
}

export const specSubject = (specId: string) => `openapi:${specId}`;

export interface ProcessOptions {
  /** Total time of one fetch (the entry, or one external file); past it: FETCH_TIMEOUT. */
  fetchTimeoutMs: number;
  /** Time to connect for one fetch. */
  connectTimeoutMs: number;
  /** Largest entry document, and largest external file (bytes). */
  maxBytes: number;
  /** Attempts before a failure a retry can help (a timeout, a network error) is final. */
  maxAttempts: number;
  limits?: Partial<ParseLimits>;
}

export const PROCESS_DEFAULTS: ProcessOptions = {
  fetchTimeoutMs: 20_000,
  connectTimeoutMs: 5_000,
  maxBytes: 10 * 1024 * 1024,
  maxAttempts: 3,
};

/** The largest text a spec may be given as (characters), as its source or in the API's `source.text`. */
export const MAX_SPEC_TEXT = 8 * 1024 * 1024;

/** An outbound failure as GitBook's processing code, and whether trying again may help. */
export function fetchFailure(err: unknown, url: string): SpecProcessError {
  if (!(err instanceof OutboundError))
    return new SpecProcessError('FETCH_ERROR', `Fetching "${url}" failed: ${(err as Error)?.message ?? err}`, true);
  const message = `Fetching "${url}" failed: ${err.message}`;
  switch (err.code) {
    case 'timeout':
    case 'connect-timeout':
      return new SpecProcessError('FETCH_TIMEOUT', message, true);
    case 'network':
    case 'dns-failed':
      return new SpecProcessError('FETCH_ERROR', message, true);
    case 'http-status': {
      // 5xx, 408 and 429 may pass; another 4xx will not.
      const status = Number(/answered (\d+)/.exec(err.message)?.[1] ?? 0);
      return new SpecProcessError('FETCH_ERROR', message, status >= 500 || status === 408 || status === 429);
    }
    default:
      // A refused address, a malformed URL, a body over the limit, a redirect loop: the same next time.
      return new SpecProcessError('FETCH_ERROR', message, false);
  }
}

/** Fetches a text through the outbound fetcher (the server's only way to fetch a URL). */
async function fetchText(url: string, allow: AllowList, options: ProcessOptions): Promise<string> {
  try {
    const res = await fetchOutbound(url, {
      allow,
      maxBytes: options.maxBytes,
      totalTimeoutMs: options.fetchTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
    });
    return res.body.toString('utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw fetchFailure(err, url);
  }
}

/** Why the runner aborted a job (its signal's reason; see jobs/runner.ts). */
type AbortCause = 'cancelled' | 'timeout' | 'lease-lost' | 'shutdown';

/**
 * The job that processes a spec's source: fetch the entry (a URL source) through the outbound
 * fetcher, parse, bundle and validate it in a worker thread (parse.ts; external $refs fetched
 * through the outbound fetcher too), and add a version unless the content is unchanged.
 *
 * The spec reports `progress` while it runs, then `complete` with or without
 * `lastProcessErrorCode`; a failure a retry can help (timeouts, network errors, 5xx) leaves it
 * `pending` until its last attempt. A failure never touches the versions: the previous one stays
 * served. A job superseded by a newer source of the same spec before it started does nothing.
 */
export function openApiSpecJob(
  deps: { db: Db; clock: Clock; outboundAllow: string | undefined },
  overrides: Partial<ProcessOptions> = {},
): JobKind<ProcessPayload> {
  const options = { ...PROCESS_DEFAULTS, ...overrides };
  const allow = parseAllowList(deps.outboundAllow);
  const { db, clock } = deps;
  return {
    kind: OPENAPI_SPEC_JOB,
    maxAttempts: options.maxAttempts,
    timeoutMs: 10 * 60_000,
    async run({ job, signal, progress }) {
      const spec = await findSpecById(db, job.payload.specId);
      if (!spec) return { skipped: 'deleted' };
      if (spec.job_id !== job.id) return { skipped: 'superseded' };
      await reportSpecProcessing(db, spec.id, job.id, { state: 'progress' }, clock.now());
      const source = job.payload.source;
      const sourceUrl = 'url' in source ? source.url : null;
      try {
        await progress({ step: 'fetch' });
        const entryText = sourceUrl ? await fetchText(sourceUrl, allow, options) : (source as { text: string }).text;
        if (entryText.length > MAX_SPEC_TEXT)
          throw new SpecProcessError('FETCH_ERROR', `The specification is larger than ${MAX_SPEC_TEXT} characters`);
        signal.throwIfAborted();
        await progress({ step: 'parse' });
        const parsed = await parseSpecification(
          { entryUrl: sourceUrl, entryText },
          (url) => fetchText(url, allow, options),
          { signal, limits: options.limits },
        );
        signal.throwIfAborted();
        const added = await db.transaction(async (tx) => {
          const now = clock.now();
          const version = await addVersionIfChanged(
            tx,
            {
              id: newId(),
              specId: spec.id,
              sourceUrl,
              rawText: entryText,
              rawFormat: parsed.format,
              filesystem: parsed.filesystem,
              bundle: parsed.bundle,
              contentHash: parsed.hash,
              specVersion: parsed.specVersion,
            },
            now,
          );
          await reportSpecProcessing(
            tx,
            spec.id,
            job.id,
            { state: 'complete', processedAt: now, errorCode: null, errors: [], errorCount: 0 },
            now,
          );
          return version;
        });
        return { version: added?.id ?? spec.last_version_id, changed: added !== undefined };
      } catch (err) {
        const cause = signal.aborted ? (signal.reason as AbortCause) : undefined;
        // Another process runs it now (lease lost), or it runs again after the restart (shutdown).
        if (cause === 'lease-lost') throw err;
        if (cause === 'shutdown') {
          await reportSpecProcessing(db, spec.id, job.id, { state: 'pending' }, clock.now());
          throw err;
        }
        const failure =
          cause === 'timeout'
            ? new SpecProcessError('FETCH_TIMEOUT', 'Processing the specification took too long', true)
            : cause === 'cancelled'
              ? new SpecProcessError('FETCH_ERROR', 'The processing was cancelled')
              : err instanceof SpecProcessError
                ? err
                : new SpecProcessError(
                    'PARSE_ERROR',
                    `The specification could not be processed: ${(err as Error).message}`,
                  );
        const final = !failure.retryable || job.attempts >= job.max_attempts;
        const now = clock.now();
        await reportSpecProcessing(
          db,
          spec.id,
          job.id,
          final
            ? {
                state: 'complete',
                processedAt: now,
                errorCode: failure.code,
                errors: failure.errors.slice(0, 20),
                errorCount: failure.count,
              }
            : { state: 'pending' },
          now,
        );
        throw new JobError(failure.code, failure.message, failure.retryable);
      }
    },
  };
}
