import type { MaterializedContent } from '../../shared/doc';
import type { MarkdownAnalysis } from '../../shared/markdown';
import { pageHash, type StoredPage } from '../docs/revision-store';
import type { Queryable } from '../store/db';
import type { SpaceRevisionHook } from '../docs/snapshots';

/** Analyses page markdown off the event loop (MarkdownService.analysis: worker pool, limits, cache by text). */
export type Analyze = (markdown: string) => Promise<MarkdownAnalysis>;

/** What indexing reads of a materialized page. */
type IndexedPage = StoredPage & {
  type: string;
  title: string;
  description?: string;
  noIndex?: boolean;
  markdown?: string;
};

/** PostgreSQL text-search configuration for a space language (stemming); 'simple' otherwise. */
const CONFIGS: Record<string, string> = {
  en: 'english',
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  'pt-br': 'portuguese',
  ru: 'russian',
  nl: 'dutch',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
  fi: 'finnish',
  hu: 'hungarian',
  ro: 'romanian',
  tr: 'turkish',
};

/** The text-search configuration used for a space (English when the language is unset). */
export function searchConfig(language: string | null | undefined): string {
  return CONFIGS[language ?? 'en'] ?? 'simple';
}

interface SectionRow {
  pageId: string;
  hash: string;
  sectionId: string;
  ord: number;
  pageTitle: string;
  description: string;
  path: string;
  title: string;
  body: string;
}

/** The index rows a snapshot needs written, and the pages whose old rows go. */
export interface IndexChanges {
  rows: SectionRow[];
  stale: string[];
}

/**
 * Works out, outside any transaction, what the search index of a space needs
 * after a snapshot: sections of the pages whose content hash changed and the
 * pages that are gone. Markdown analysis is CPU work, and some texts take
 * seconds: it runs in the parse pool (`analyze`), all changed pages at once,
 * so the event loop stays free; a text too complex to analyse in time is
 * indexed as plain text. Pages marked noIndex are not indexed.
 */
export async function planIndex(
  db: Queryable,
  spaceId: string,
  snapshot: MaterializedContent,
  analyze: Analyze,
): Promise<IndexChanges> {
  const indexed = new Map(
    (
      await db.query<{ page_id: string; page_hash: string }>(
        'SELECT DISTINCT page_id, page_hash FROM search_sections WHERE space_id = $1',
        [spaceId],
      )
    ).map((r) => [r.page_id, r.page_hash]),
  );
  const keep = new Set<string>();
  const changed: { pageId: string; hash: string; page: IndexedPage; path: string }[] = [];
  for (const [pageId, info] of snapshot.pageIndex) {
    const page = info.page as unknown as IndexedPage;
    if (page.type === 'link' || page.noIndex) continue;
    keep.add(pageId);
    const hash = pageHash(page);
    if (indexed.get(pageId) === hash) continue;
    changed.push({ pageId, hash, page, path: info.path });
  }
  const analyses = await Promise.all(
    changed.map(({ page }) =>
      page.type === 'document' && typeof page.markdown === 'string' ? analyze(page.markdown) : undefined,
    ),
  );
  const rows: SectionRow[] = [];
  changed.forEach(({ pageId, hash, page, path }, i) => {
    const sections = analyses[i]?.sections ?? [];
    const base = { pageId, hash, pageTitle: page.title, description: page.description ?? '', path };
    if (sections.length === 0) rows.push({ ...base, sectionId: '', ord: 0, title: '', body: '' });
    sections.forEach((s, ord) => rows.push({ ...base, sectionId: s.id, ord, title: s.title, body: s.body }));
  });
  const removed = [...indexed.keys()].filter((id) => !keep.has(id));
  return { rows, stale: [...changed.map((c) => c.pageId), ...removed] };
}

/** Writes planned index changes (inside the revision's transaction). Returns how many pages were (re)indexed. */
export async function applyIndex(
  db: Queryable,
  spaceId: string,
  language: string | null,
  changes: IndexChanges,
): Promise<number> {
  const { rows, stale } = changes;
  if (stale.length > 0)
    await db.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2::text[])', [spaceId, stale]);
  if (rows.length > 0) {
    const col = <K extends keyof SectionRow>(k: K) => rows.map((r) => r[k]);
    // Title words weigh more than body words in the ranking.
    await db.query(
      `INSERT INTO search_sections (space_id, page_id, page_hash, section_id, ord, page_title, page_description, page_path, title, body, tsv)
       SELECT $1, r.page_id, r.page_hash, r.section_id, r.ord, r.page_title, r.page_description, r.page_path, r.title, r.body,
              setweight(to_tsvector($11::regconfig, r.page_title), 'A') || setweight(to_tsvector($11::regconfig, r.title), 'B')
              || setweight(to_tsvector($11::regconfig, r.page_description), 'C') || setweight(to_tsvector($11::regconfig, r.body), 'D')
         FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
              AS r(page_id, page_hash, section_id, ord, page_title, page_description, page_path, title, body)`,
      [
        spaceId,
        col('pageId'),
        col('hash'),
        col('sectionId'),
        col('ord'),
        col('pageTitle'),
        col('description'),
        col('path'),
        col('title'),
        col('body'),
        searchConfig(language),
      ],
    );
  }
  return new Set(rows.map((r) => r.pageId)).size;
}

/**
 * The search index as a subscriber of new space revisions: it plans the
 * changed pages' sections before the revision's transaction and writes them
 * inside it, so the index never lags behind or runs ahead of the revision.
 */
export function searchIndexHook(db: Queryable, markdown: { analysis: Analyze }): SpaceRevisionHook {
  const analyze: Analyze = (text) => markdown.analysis(text);
  return {
    async prepare(spaceId, snapshot) {
      const changes = await planIndex(db, spaceId, snapshot, analyze);
      return async (tx, space) => void (await applyIndex(tx, spaceId, space.language, changes));
    },
  };
}
