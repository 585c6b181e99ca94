import type { Queryable } from './db';

/** One indexed section that matches a query, with its page and rank. */
export interface SectionHit {
  space_id: string;
  page_id: string;
  page_title: string;
  page_description: string;
  page_path: string;
  section_id: string;
  title: string;
  body: string;
  score: number;
}

/**
 * The best `limit` sections of these spaces matching a web-search style query
 * (`"phrases"`, `-excluded`, `or`), best first; `textSearchConfig` is the
 * PostgreSQL configuration to parse the query with (the indexer's, so stems match).
 */
export async function findSectionHits(
  db: Queryable,
  spaceIds: string[],
  query: string,
  textSearchConfig: string,
  limit: number,
): Promise<SectionHit[]> {
  if (spaceIds.length === 0) return [];
  return db.query<SectionHit>(
    `SELECT s.space_id, s.page_id, s.page_title, s.page_description, s.page_path, s.section_id, s.title, s.body, ts_rank(s.tsv, q) AS score
       FROM search_sections s, websearch_to_tsquery($3::regconfig, $2) q
      WHERE s.space_id = ANY($1::text[]) AND s.tsv @@ q
      ORDER BY score DESC, s.page_id, s.ord LIMIT $4`,
    [spaceIds, query, textSearchConfig, limit],
  );
}
