import type { ApiClient } from '../api/client';
import { MAX_HITS, SECTIONS_PER_PAGE, type SearchHit } from './types';

/**
 * The server's full-text search of a space (`GET /v1/spaces/{id}/search`,
 * searchSpaceContent): ranked pages, each with its matching sections. It
 * searches the space's latest revision, so text typed in the last seconds
 * may not be found yet.
 */

/** One page of searchSpaceContent's answer (sync-server/api/search/routes.ts). */
interface PageResult {
  id: string;
  title: string;
  sections: { id: string; title: string; body: string }[];
}

/** Searches `spaceId` on the server; throws OfflineError / ApiError / AbortError as ApiClient does. */
export async function searchOnline(
  api: ApiClient,
  spaceId: string,
  query: string,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const answer = await api.request<{ items: PageResult[] }>(`/spaces/${encodeURIComponent(spaceId)}/search`, {
    query: { query: query.slice(0, 512), limit: 20 },
    signal,
  });
  const hits: SearchHit[] = [];
  for (const page of answer.items) {
    for (const section of page.sections.slice(0, SECTIONS_PER_PAGE)) {
      hits.push({
        spaceId,
        pageId: page.id,
        pageTitle: page.title,
        sectionId: section.id,
        // The server names the intro after the page; the palette shows the page title once.
        sectionTitle: section.id === '' ? '' : section.title,
        body: section.body,
      });
    }
  }
  return hits.slice(0, MAX_HITS);
}
