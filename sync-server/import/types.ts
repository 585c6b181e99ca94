/**
 * What every import source produces before anything is written: pages in tree order (a parent
 * before its children) whose markdown names other imported pages and files by batch refs, the
 * files those refs name, and counts of what was found and what had to be skipped.
 */

export interface ImportedPage {
  /** The page's batch ref: links to it in other pages are `<ref>.md`. */
  ref: string;
  /** Ref of the parent page (imported in the same run), or undefined for a top-level page. */
  parent?: string;
  title: string;
  markdown: string;
  /** Where the page came from (a URL, or a path inside an uploaded archive). */
  sourceURL?: string;
}

export interface ImportedFile {
  ref: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface ImportTree {
  pages: ImportedPage[];
  files: ImportedFile[];
  /** Resources found (pages and files), the skipped ones included. */
  total: number;
  /** Resources that failed (fetch, conversion, size) and were left out. */
  skipped: number;
}

/** Progress reported while a source is read. */
export interface ImportProgress {
  found: number;
  done: number;
  skipped: number;
}

/** An import that cannot go on (GitBook-style code, message safe to show the caller). */
export class ImportError extends Error {
  constructor(
    readonly code: 'FETCH_ERROR' | 'FETCH_TIMEOUT' | 'INVALID_SOURCE' | 'NOTHING_IMPORTED',
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

/** Names refs so they never collide with a page path of the target (see links.ts checkRefsAgainstPaths). */
export function refNamer(runId: string) {
  const prefix = `folio-import-${runId.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  let pages = 0;
  let files = 0;
  return { page: () => `${prefix}-p${++pages}`, file: () => `${prefix}-f${++files}` };
}
