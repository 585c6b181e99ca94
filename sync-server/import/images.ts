import { formatBytes, type ImportTally } from './tally';
import {
  failureDetail,
  ResourceTooLarge,
  type Fetched,
  type ImportedFile,
  type ImportProgress,
  type refNamer,
} from './types';

/**
 * The images of a website import's pages, downloaded as files: each at most `maxFileBytes`
 * (FOLIO_IMPORT_MAX_FILE_BYTES; the fetch stops there, nothing larger is held), at most
 * `maxImages` of them and `maxTotalFileBytes` in all (a run holds its files in memory until it
 * writes them). An image left out is counted and listed with its reason, and stays a link to its
 * URL in the page.
 */

/** What downloading a website's images needs (WebsiteOptions has it all). */
export interface ImageOptions {
  /** Largest image kept as a file (bytes, FOLIO_IMPORT_MAX_FILE_BYTES); a larger one stays a link to its URL. */
  maxFileBytes: number;
  /** Images downloaded at most (a page full of icons must not make a run of thousands of files). */
  maxImages: number;
  /** Bytes of all the images of one run at most (they are held in memory until written). */
  maxTotalFileBytes: number;
  /** Fetches a URL; with `maxBytes`, a larger body rejects with ResourceTooLarge. */
  fetch(url: string, maxBytes?: number): Promise<Fetched>;
  signal: AbortSignal;
  progress(p: ImportProgress): Promise<void>;
}

/** Downloads `images`; answers the file ref of each one kept (by its URL), and the files. */
export async function downloadImages(
  images: readonly string[],
  options: ImageOptions,
  tally: ImportTally,
  refs: ReturnType<typeof refNamer>,
): Promise<{ files: ImportedFile[]; refOf: Map<string, string> }> {
  const files: ImportedFile[] = [];
  const refOf = new Map<string, string>();
  const tried = images.slice(0, options.maxImages);
  tally.found('files', tried.length);
  tally.unreadPast(
    images.length - tried.length,
    images[tried.length] ?? '',
    'FILE_LIMIT',
    `${images.length - tried.length} more images past the limit of ${options.maxImages} per import`,
  );
  let kept = 0;
  for (const url of tried) {
    options.signal.throwIfAborted();
    let file: Omit<ImportedFile, 'ref'>;
    try {
      file = await fetchImage(url, options);
    } catch (err) {
      if (options.signal.aborted) throw err;
      if (err instanceof ResourceTooLarge)
        tally.skip('files', url, 'FILE_TOO_LARGE', `larger than ${tooLargeLimit(options)}`);
      else if (err instanceof NotAnImage) tally.skip('files', url, 'INVALID_FILE', err.message);
      else tally.skip('files', url, 'FETCH_ERROR', failureDetail(err));
      await options.progress(tally.snapshot());
      continue;
    }
    if (kept + file.bytes.length > options.maxTotalFileBytes) {
      tally.skip('files', url, 'FILE_LIMIT', `the run's files would pass ${formatBytes(options.maxTotalFileBytes)}`);
    } else {
      kept += file.bytes.length;
      const ref = refs.file();
      files.push({ ref, ...file });
      refOf.set(url, ref);
      tally.done('files');
    }
    await options.progress(tally.snapshot());
  }
  return { files, refOf };
}

const tooLargeLimit = (options: ImageOptions) =>
  `${options.maxFileBytes} bytes (${formatBytes(options.maxFileBytes)}), the limit per file (FOLIO_IMPORT_MAX_FILE_BYTES)`;

class NotAnImage extends Error {}

async function fetchImage(url: string, options: ImageOptions): Promise<Omit<ImportedFile, 'ref'>> {
  const res = await options.fetch(url, options.maxFileBytes);
  // The fetcher stops at the limit already; this keeps the rule whatever fetch the caller passed.
  if (res.body.length > options.maxFileBytes) throw new ResourceTooLarge(url, options.maxFileBytes);
  if (res.body.length === 0) throw new NotAnImage('the image is empty');
  const contentType = res.contentType?.split(';')[0]?.trim().toLowerCase();
  // A strict form: the type is stored with the file and sent back as its Content-Type header.
  if (!contentType || !/^image\/[a-z0-9][a-z0-9.+-]{0,100}$/.test(contentType))
    throw new NotAnImage(`not an image (${contentType?.slice(0, 100) || 'no content type'})`);
  return { name: fileName(res.url, contentType), contentType, bytes: res.body };
}

function fileName(url: string, contentType: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '-');
  if (last && last !== '.' && last !== '..') return last.slice(-100);
  return `image.${contentType.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin'}`;
}
