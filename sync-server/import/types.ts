/**
 * What every import source produces before anything is written: pages in tree order (a parent
 * before its children) whose markdown names other imported pages and files by batch refs, the
 * files those refs name, counts of what was found and read, and what had to be skipped and why.
 */

export interface ImportedPage {
  /** The page's batch ref: links to it in other pages are `<ref>.md`. */
  ref: string;
  /** Ref of the parent page (imported in the same run), or undefined for a top-level page. */
  parent?: string;
  /** 'group': a heading of an export's SUMMARY.md, holding the pages listed below it (no body, no source). */
  kind?: 'group';
  title: string;
  markdown: string;
  /** Where the page came from (a URL, or a path inside an uploaded archive). */
  sourceURL?: string;
}

/** A fetched resource (the caller's fetch goes through the outbound fetcher). */
export interface Fetched {
  url: string;
  contentType: string | undefined;
  body: Buffer;
}

export interface ImportedFile {
  ref: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** Counts of one kind of resource (pages, or files) of a run. */
export interface ResourceCounts {
  /** Found so far that the run reads (a crawl's pages up to its page limit). */
  total: number;
  /** Read and kept. */
  done: number;
  /** Read and left out: see ImportTree.skipped for why. */
  skipped: number;
}

/** Progress while a source is read, pages and files apart (the app shows "x of y pages"). */
export interface ImportProgress {
  pages: ResourceCounts;
  files: ResourceCounts;
}

/** Why a resource was left out of a run. */
export type SkipCode =
  | 'FETCH_ERROR'
  | 'NOT_A_PAGE'
  | 'REDIRECTED'
  | 'UNREADABLE'
  | 'UNSUPPORTED_FILE'
  | 'FILE_TOO_LARGE'
  | 'INVALID_FILE'
  | 'PAGE_LIMIT'
  | 'FILE_LIMIT';

/** One resource left out: where it was (a URL, an archive path), and why. */
export interface SkippedResource {
  source: string;
  code: SkipCode;
  message: string;
}

export interface ImportTree {
  pages: ImportedPage[];
  files: ImportedFile[];
  counts: ImportProgress;
  /** Resources found, also those past a limit that were never read (content/import's totalResources). */
  found: number;
  /** What was left out and why: the first MAX_SKIPPED_LISTED (the counts have them all). */
  skipped: SkippedResource[];
}

/** An import that cannot go on (GitBook-style code, message safe to show the caller). */
export class ImportError extends Error {
  constructor(
    readonly code: 'FETCH_ERROR' | 'FETCH_TIMEOUT' | 'INVALID_SOURCE' | 'NOTHING_IMPORTED',
    message: string,
    readonly retryable = false,
    /** The reason alone, without the URL the message names (what a skipped resource's entry says beside its URL). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

/** Why a fetch of a resource failed, to list beside its URL (which the error's own message repeats). */
export const failureDetail = (err: unknown): string =>
  err instanceof ImportError && err.detail ? err.detail : String((err as Error)?.message ?? err);

/** Names refs so they never collide with a page path of the target (see links.ts checkRefsAgainstPaths). */
export function refNamer(runId: string) {
  const prefix = `folio-import-${runId.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  let pages = 0;
  let files = 0;
  return { page: () => `${prefix}-p${++pages}`, file: () => `${prefix}-f${++files}` };
}

/** A fetch refused because the body is larger than the limit it was given (the resource is skipped, not the run). */
export class ResourceTooLarge extends Error {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`"${url}" is larger than ${maxBytes} bytes`);
    this.name = 'ResourceTooLarge';
  }
}
