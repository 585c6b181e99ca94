import { posix } from 'node:path';
import { unzipSync } from 'fflate';
import { ImportError } from './types';

/**
 * Unpacking an uploaded (or fetched) .zip within limits: the sizes its directory declares are
 * checked before anything is inflated (a zip bomb is refused, not inflated), and an entry larger
 * than what an import keeps is not inflated at all, only noted, so the run can say it skipped it.
 */

export interface ArchiveLimits {
  /** Most pages taken from the files of one import. */
  maxPages: number;
  /** Most entries of an archive, and their largest total size once unpacked (bytes). */
  maxEntries: number;
  maxUnpackedBytes: number;
  /** Largest file (an image, an asset) kept from an archive (bytes, FOLIO_IMPORT_MAX_FILE_BYTES). */
  maxFileBytes: number;
  /** Largest markdown or HTML page read from an archive (a page's text is cut at 1 MB when written). */
  maxPageBytes: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxPages: 1000,
  maxEntries: 5000,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxPageBytes: 4 * 1024 * 1024,
};

export const isMarkdownName = (n: string) => /\.(md|markdown)$/i.test(n);
export const isHtmlName = (n: string) => /\.html?$/i.test(n);

/** The archive's files by path, and the sizes of those too large to keep (not inflated). */
export interface Unpacked {
  files: Map<string, Uint8Array>;
  oversized: Map<string, number>;
}

/** An entry's path inside the archive, or undefined for paths leaving it and the clutter archivers add. */
function archivePath(name: string): string | undefined {
  const path = posix.normalize(name.replace(/\\/g, '/')).replace(/^\/+/, '');
  if (path.startsWith('..') || /(^|\/)(__MACOSX|\.DS_Store)(\/|$)/.test(path)) return undefined;
  return path;
}

/** Unpacks an archive within the limits (see the file comment). */
export function unpack(bytes: Buffer, limits: ArchiveLimits): Unpacked {
  let entries = 0;
  let total = 0;
  let tooBig: string | undefined;
  const oversized = new Map<string, number>();
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(entry) {
        if (entry.name.endsWith('/')) return false;
        const path = archivePath(entry.name);
        if (path === undefined) return false;
        entries++;
        if (entries > limits.maxEntries) tooBig = `more than ${limits.maxEntries} files`;
        const limit = isMarkdownName(path) || isHtmlName(path) ? limits.maxPageBytes : limits.maxFileBytes;
        if (entry.originalSize > limit) {
          oversized.set(path, entry.originalSize);
          return false;
        }
        total += entry.originalSize;
        if (total > limits.maxUnpackedBytes) tooBig = `more than ${limits.maxUnpackedBytes} bytes unpacked`;
        return !tooBig;
      },
    });
  } catch (err) {
    throw new ImportError('INVALID_SOURCE', `The archive could not be read: ${(err as Error).message}`);
  }
  if (tooBig) throw new ImportError('INVALID_SOURCE', `The archive has ${tooBig}`);
  const out = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) out.set(archivePath(name)!, data);
  return { files: out, oversized };
}
