import type { ApiClient } from '../api/client';
import type { List, User } from '../api/types';

/** One item of `GET /spaces/{id}/revisions` (Folio's history extension). */
export interface RevisionSummary {
  id: string;
  type: string;
  createdAt: string;
  author?: User;
  parents: string[];
  pages: { id: string; title: string; path?: string; change: string }[];
}

/** The history calls of the REST API. */
export class HistoryApi {
  constructor(
    private readonly api: ApiClient,
    readonly spaceId: string,
  ) {}

  /** One page of revisions, newest first; `pageId` keeps those that changed that page. */
  list(options: { pageId?: string; cursor?: string; limit?: number } = {}): Promise<List<RevisionSummary>> {
    return this.api.request(`/spaces/${this.spaceId}/revisions`, {
      query: { pageId: options.pageId, page: options.cursor, limit: options.limit ?? 20 },
    });
  }

  /** A page's markdown as it was right after `revisionId`. */
  async pageMarkdownAt(revisionId: string, pageId: string): Promise<string> {
    const page = await this.api.request<{ markdown?: string }>(
      `/spaces/${this.spaceId}/revisions/${revisionId}/page/${pageId}`,
      { query: { format: 'markdown' } },
    );
    return page.markdown ?? '';
  }
}
