import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { pageArray, type PageRequest } from '../../http/paging';
import { can } from '../../policy';
import { spaceResource } from '../../access/resources';
import { searchConfig } from '../../search/indexer';
import { findSectionHits, type SectionHit } from '../../store/search';
import { listActiveSpacesOfOrganization } from '../../store/spaces';
import { requireOrgActor } from '../authorize';
import { requireSpace } from '../spaces/service';
import { viewOf } from '../../docs/revision-view';

interface SectionResult {
  id: string;
  title: string;
  path: string;
  score: number;
  resultType: 'section';
  body: string;
  urls: { app: string };
}

/** Longest section body returned in a result; the page has the rest. */
const BODY_LIMIT = 600;
/** Most sections considered per query (the best ones, by rank). */
const HIT_LIMIT = 2000;

/** The best sections of these spaces for `query`, parsed with the configuration of `language`. */
function findHits(ctx: AppContext, spaceIds: string[], query: string, language: string | null): Promise<SectionHit[]> {
  return findSectionHits(ctx.db, spaceIds, query, searchConfig(language), HIT_LIMIT);
}

/** Groups ranked section hits into ranked page results (GitBook's SearchPageResult). */
function pageResults(ctx: AppContext, hits: SectionHit[]) {
  const pages = new Map<string, ReturnType<typeof newPage>>();
  const newPage = (h: SectionHit) => ({
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

/**
 * Fills each result's `ancestors` (top-level first, then down to the direct
 * parent) from its space's current revision, as GitBook's SearchPageResult.
 */
async function withAncestors<R extends { spaceId: string; page: { id: string; ancestors: { title: string }[] } }>(
  ctx: AppContext,
  results: R[],
  revisionOf: (spaceId: string) => string | undefined,
): Promise<R[]> {
  for (const r of results) {
    const revisionId = revisionOf(r.spaceId);
    const revision = revisionId ? await ctx.revisions.get(revisionId) : undefined;
    if (!revision) continue;
    const view = viewOf(revision);
    const trail: { title: string }[] = [];
    const seen = new Set<string>([r.page.id]);
    for (
      let id = view.parentOf.get(r.page.id) ?? null;
      id !== null && !seen.has(id);
      id = view.parentOf.get(id) ?? null
    ) {
      seen.add(id);
      const title = view.pagesById.get(id)?.title;
      trail.unshift({ title: typeof title === 'string' ? title : '' });
    }
    r.page.ancestors = trail;
  }
  return results;
}

/** Full-text search in the current content of one space. */
export async function searchSpace(ctx: AppContext, p: Principal, spaceId: string, query: string, page: PageRequest) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const results = await withAncestors(
    ctx,
    pageResults(ctx, await findHits(ctx, [spaceId], query, row.language)),
    () => row.revision,
  );
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
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const spaces = (await listActiveSpacesOfOrganization(ctx.db, organizationId)).filter((s) =>
    can(actor, 'view', spaceResource(s)),
  );
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const results = await withAncestors(
    ctx,
    pageResults(ctx, await findHits(ctx, [...byId.keys()], query, 'en')),
    (id) => byId.get(id)?.revision,
  );
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
