import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageArray, type PageRequest } from '../../http/paging';
import { AccessIndex } from '../../policy/access';
import { requireOrgMember } from '../../policy/guards';
import { searchConfig } from '../../search/indexer';
import { spaceNode, SPACE_COLUMNS, type SpaceRow } from '../spaces/present';
import { requireSpace } from '../spaces/service';

interface SectionResult {
  id: string;
  title: string;
  path: string;
  score: number;
  resultType: 'section';
  body: string;
  urls: { app: string };
}

interface Hit {
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

/** Longest section body returned in a result; the page has the rest. */
const BODY_LIMIT = 600;
/** Most sections considered per query (the best ones, by rank). */
const HIT_LIMIT = 2000;

async function findHits(ctx: AppContext, spaceIds: string[], query: string, language: string | null): Promise<Hit[]> {
  if (spaceIds.length === 0) return [];
  return ctx.db.query<Hit>(
    `SELECT s.space_id, s.page_id, s.page_title, s.page_description, s.page_path, s.section_id, s.title, s.body, ts_rank(s.tsv, q) AS score
       FROM search_sections s, websearch_to_tsquery($3::regconfig, $2) q
      WHERE s.space_id = ANY($1::text[]) AND s.tsv @@ q
      ORDER BY score DESC, s.page_id, s.ord LIMIT ${HIT_LIMIT}`,
    [spaceIds, query, searchConfig(language)],
  );
}

/** Groups ranked section hits into ranked page results (GitBook's SearchPageResult). */
function pageResults(ctx: AppContext, hits: Hit[]) {
  const pages = new Map<string, ReturnType<typeof newPage>>();
  const newPage = (h: Hit) => ({
    id: h.page_id,
    title: h.page_title,
    description: h.page_description,
    path: h.page_path,
    score: Number(h.score),
    rank: 0,
    resultType: 'section' as const,
    ancestors: [] as { title: string }[],
    sections: [] as SectionResult[],
    urls: { app: ctx.urls.app(`/s/${h.space_id}/${h.page_path}`) },
  });
  for (const h of hits) {
    const key = `${h.space_id}/${h.page_id}`;
    let page = pages.get(key);
    if (!page) pages.set(key, (page = newPage(h)));
    page.sections.push({
      id: h.section_id,
      title: h.title || h.page_title,
      path: h.section_id ? `${h.page_path}#${h.section_id}` : h.page_path,
      score: Number(h.score),
      resultType: 'section',
      body: h.body.length > BODY_LIMIT ? `${h.body.slice(0, BODY_LIMIT)}…` : h.body,
      urls: { app: ctx.urls.app(`/s/${h.space_id}/${h.page_path}${h.section_id ? `#${h.section_id}` : ''}`) },
    });
  }
  return [...pages.entries()].map(([key, page], i) => ({
    key,
    spaceId: key.split('/')[0]!,
    page: { ...page, rank: i + 1 },
  }));
}

/** Full-text search in the current content of one space. */
export async function searchSpace(ctx: AppContext, p: Principal, spaceId: string, query: string, page: PageRequest) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const results = pageResults(ctx, await findHits(ctx, [spaceId], query, row.language));
  return pageArray(
    results.map((r) => r.page),
    page,
  );
}

/** Full-text search across every space of an organization the caller can read, grouped by space. */
export async function searchOrganization(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  query: string,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const index = await AccessIndex.load(ctx.db, m);
  const spaces = (
    await ctx.db.query<SpaceRow>(
      `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL`,
      [organizationId],
    )
  ).filter((s) => index.roleOf(spaceNode(s)));
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const results = pageResults(ctx, await findHits(ctx, [...byId.keys()], query, 'en'));
  const grouped = new Map<
    string,
    { type: 'space'; id: string; title: string; score: number; pages: (typeof results)[number]['page'][] }
  >();
  for (const r of results) {
    let space = grouped.get(r.spaceId);
    if (!space)
      grouped.set(
        r.spaceId,
        (space = { type: 'space', id: r.spaceId, title: byId.get(r.spaceId)!.title, score: r.page.score, pages: [] }),
      );
    space.pages.push(r.page);
  }
  return pageArray([...grouped.values()], page);
}
