import type { RevisionRecord, StoredPage } from './revision-store';

/** A stored file entry of a revision (what the content document records). */
export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  width?: number;
  height?: number;
  sha256: string;
}

/**
 * Lookups over one immutable revision, built once and kept with it: pages by
 * id and by path, with their parent, and files by id.
 */
export interface RevisionView {
  revision: RevisionRecord;
  pagesById: Map<string, StoredPage>;
  pagesByPath: Map<string, StoredPage>;
  parentOf: Map<string, string | null>;
  filesById: Map<string, StoredFile>;
}

const views = new WeakMap<RevisionRecord, RevisionView>();

export function viewOf(revision: RevisionRecord): RevisionView {
  let view = views.get(revision);
  if (view) return view;
  const pagesById = new Map<string, StoredPage>();
  const pagesByPath = new Map<string, StoredPage>();
  const parentOf = new Map<string, string | null>();
  const walk = (pages: StoredPage[], parent: string | null) => {
    for (const page of pages) {
      pagesById.set(page.id, page);
      parentOf.set(page.id, parent);
      if (typeof page.path === 'string' && !pagesByPath.has(page.path)) pagesByPath.set(page.path, page);
      walk(page.pages ?? [], page.id);
    }
  };
  walk(revision.pages, null);
  const filesById = new Map((revision.files as StoredFile[]).map((f) => [f.id, f]));
  view = { revision, pagesById, pagesByPath, parentOf, filesById };
  views.set(revision, view);
  return view;
}
