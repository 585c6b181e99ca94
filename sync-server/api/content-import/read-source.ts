import type { AppContext } from '../../context';
import { fetchOutbound, OutboundError, parseAllowList, type AllowList } from '../../outbound';
import { loadUploadSlot } from '../../store/uploads';
import { ARCHIVE_LIMITS, importFiles, isZip, type SourceFile } from '../../import/archive';
import { ImportError, ResourceTooLarge, type ImportProgress, type ImportTree } from '../../import/types';
import { importWebsite, type Fetched } from '../../import/website';
import type { ImportPayload } from './job';

/** Limits of one import's fetches and files. */
export interface ReadLimits {
  fetchTimeoutMs: number;
  connectTimeoutMs: number;
  /** Largest page, archive or markdown file fetched (bytes). */
  maxBytes: number;
  /** Images of a website downloaded at most, and their bytes in all (a run holds them in memory until it writes). */
  maxImages: number;
  maxTotalFileBytes: number;
}

export const READ_LIMITS: ReadLimits = {
  fetchTimeoutMs: 20_000,
  connectTimeoutMs: 5_000,
  maxBytes: 50 * 1024 * 1024,
  maxImages: 200,
  maxTotalFileBytes: 200 * 1024 * 1024,
};

/** An outbound failure as an import failure: a refused or malformed address is the caller's, the rest the source's. */
export function fetchFailure(err: unknown, url: string): ImportError {
  const detail = String((err as Error)?.message ?? err);
  const message = `Fetching "${url}" failed: ${detail}`;
  if (!(err instanceof OutboundError)) return new ImportError('FETCH_ERROR', message, true, detail);
  switch (err.code) {
    case 'timeout':
    case 'connect-timeout':
      return new ImportError('FETCH_TIMEOUT', message, true, detail);
    case 'invalid-url':
    case 'refused-address':
      return new ImportError('INVALID_SOURCE', message, false, detail);
    default:
      return new ImportError('FETCH_ERROR', message, false, detail);
  }
}

function fetcher(allow: AllowList, limits: ReadLimits, signal: AbortSignal) {
  return async (url: string, maxBytes?: number): Promise<Fetched> => {
    signal.throwIfAborted();
    // The fetcher takes no signal: a cancelled or stopping run stops waiting for it (the fetch ends at its own timeout).
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const res = await Promise.race([
        fetchOutbound(url, {
          allow,
          maxBytes: maxBytes ?? limits.maxBytes,
          totalTimeoutMs: limits.fetchTimeoutMs,
          connectTimeoutMs: limits.connectTimeoutMs,
        }),
        aborted,
      ]);
      return { url: res.url, contentType: res.contentType, body: res.body };
    } catch (err) {
      if (signal.aborted) throw err;
      // Past a limit the caller set (an image over FOLIO_IMPORT_MAX_FILE_BYTES): that resource is skipped, not the run.
      if (maxBytes !== undefined && err instanceof OutboundError && err.code === 'too-large')
        throw new ResourceTooLarge(url, maxBytes);
      throw fetchFailure(err, url);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  };
}

const isMarkdown = (f: Fetched) =>
  /^text\/(markdown|x-markdown)/i.test(f.contentType ?? '') || /\.(md|markdown)$/i.test(new URL(f.url).pathname);

/** Reads the import's source into pages and files (nothing is written here). */
export async function readSource(
  ctx: AppContext,
  payload: ImportPayload,
  runId: string,
  signal: AbortSignal,
  progress: (p: ImportProgress) => Promise<void>,
  limits: ReadLimits = READ_LIMITS,
): Promise<ImportTree> {
  const source = payload.source;
  const archiveLimits = { ...ARCHIVE_LIMITS, maxFileBytes: ctx.config.importMaxFileBytes };
  if (source.type === 'file')
    return importFiles(await uploadedFiles(ctx, payload.organizationId, source.files), runId, archiveLimits);
  const fetch = fetcher(parseAllowList(ctx.config.outboundAllow), limits, signal);
  const first = await fetch(source.url);
  // A URL may name an export archive or a markdown file instead of a site.
  if (isZip(first.body) || isMarkdown(first))
    return importFiles(
      [
        {
          name: decodeURIComponent(new URL(first.url).pathname.split('/').pop() || 'index.md'),
          contentType: first.contentType,
          bytes: first.body,
        },
      ],
      runId,
      archiveLimits,
    );
  return importWebsite(
    source.url,
    {
      runId,
      maxPages: ctx.config.importMaxPages,
      maxFileBytes: ctx.config.importMaxFileBytes,
      maxImages: limits.maxImages,
      maxTotalFileBytes: limits.maxTotalFileBytes,
      fetch,
      signal,
      progress,
    },
    first,
  );
}

/** The bytes of uploaded files, by their storage keys (checked when the run started; gone since: INVALID_SOURCE). */
async function uploadedFiles(ctx: AppContext, organizationId: string, keys: readonly string[]): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  for (const key of keys) {
    const slot = await loadUploadSlot(ctx.db, key);
    if (!slot || slot.organization_id !== organizationId || !slot.sha256)
      throw new ImportError('INVALID_SOURCE', `No uploaded file has the key "${key}"`);
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.storage.blobs.read(slot.sha256)) chunks.push(chunk as Buffer);
    out.push({ name: slot.name, contentType: slot.content_type, bytes: Buffer.concat(chunks) });
  }
  return out;
}
