import type { RevisionRecord, StoredPage } from '../../docs/revision-store';
import { pageHash } from '../../docs/revision-store';

/**
 * Semantic changes between two revisions (GitBook's RevisionSemanticChanges):
 * pages created, deleted, edited (with the attributes that changed) and moved.
 * Pages are matched by id, so a fork's edits are compared page by page.
 */

type Changed = { id: string; type: string; title: string; path?: string };
export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: Changed }
  | { type: 'page_edited'; page: Changed; attributes: Record<string, { before?: string; after?: string }> }
  | { type: 'page_moved'; page: Changed; parent: { before?: Changed; after?: Changed } };

interface Flat {
  page: StoredPage;
  parent: string | null;
}

function flatten(pages: StoredPage[], parent: string | null, out: Map<string, Flat>): Map<string, Flat> {
  for (const page of pages) {
    out.set(page.id, { page, parent });
    flatten(page.pages ?? [], page.id, out);
  }
  return out;
}

function changed(p: StoredPage): Changed {
  return {
    id: p.id,
    type: typeof p.type === 'string' ? p.type : 'document',
    title: typeof p.title === 'string' && p.title ? p.title : 'Untitled',
    ...(typeof p.path === 'string' ? { path: p.path } : {}),
  };
}

const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v);

/** Which of the attributes GitBook reports differ between two versions of a page. */
function attributeChanges(before: StoredPage, after: StoredPage) {
  const out: Record<string, { before?: string; after?: string }> = {};
  for (const key of ['title', 'description', 'slug', 'emoji']) {
    if (str(before[key]) !== str(after[key])) out[key] = { before: str(before[key]), after: str(after[key]) };
  }
  if (str(before.markdown) !== str(after.markdown))
    out.document = { before: str(before.markdown), after: str(after.markdown) };
  return out;
}

/** The changes from `base` to `head`, in head's tree order then deletions. */
export function semanticChanges(base: RevisionRecord, head: RevisionRecord): SemanticChange[] {
  const before = flatten(base.pages, null, new Map());
  const after = flatten(head.pages, null, new Map());
  const out: SemanticChange[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (!was) {
      out.push({ type: 'page_created', page: changed(now.page) });
      continue;
    }
    if (pageHash(was.page) !== pageHash(now.page)) {
      const attributes = attributeChanges(was.page, now.page);
      if (Object.keys(attributes).length > 0) out.push({ type: 'page_edited', page: changed(now.page), attributes });
    }
    if (was.parent !== now.parent) {
      const parentBefore = was.parent ? before.get(was.parent)?.page : undefined;
      const parentAfter = now.parent ? after.get(now.parent)?.page : undefined;
      out.push({
        type: 'page_moved',
        page: changed(now.page),
        parent: {
          ...(parentBefore ? { before: changed(parentBefore) } : {}),
          ...(parentAfter ? { after: changed(parentAfter) } : {}),
        },
      });
    }
  }
  for (const [id, was] of before) if (!after.has(id)) out.push({ type: 'page_deleted', page: changed(was.page) });
  return out;
}
