import type { AppContext } from '../../context';
import { loadRevision } from '../../docs/revision-store';
import { Lru } from '../../store/lru';

/** What a comment's `target.page` shows about its page. */
export interface PageSummary {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  path: string;
}

/** Page summaries per (immutable) revision: a few KB each, computed once. */
const summaries = new Lru<string, Map<string, PageSummary>>(256);

/** The pages of a revision as target summaries (empty when the revision is unknown). */
export async function pageSummaries(ctx: AppContext, revisionId: string): Promise<Map<string, PageSummary>> {
  return (
    (await summaries.getOrMake(revisionId, async () => {
      const revision = await loadRevision(ctx.db, revisionId);
      if (!revision) return undefined;
      const out = new Map<string, PageSummary>();
      const walk = (pages: typeof revision.pages) => {
        for (const p of pages) {
          const s = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
          const summary: PageSummary = { id: p.id, title: s('title') ?? '', path: s('path') ?? '' };
          for (const k of ['emoji', 'icon', 'createdAt', 'updatedAt'] as const) if (s(k)) summary[k] = s(k);
          out.set(p.id, summary);
          walk(p.pages ?? []);
        }
      };
      walk(revision.pages);
      return out;
    })) ?? new Map()
  );
}

/**
 * `target.page` of a comment: the page as it is in the scope's current
 * revision; `outdated` when the page changed after the comment was posted.
 */
export function pageTarget(pages: Map<string, PageSummary>, pageId: string, postedAt: string) {
  const page = pages.get(pageId);
  if (!page) return { id: pageId, title: '', path: '', outdated: true };
  return { ...page, outdated: page.updatedAt !== undefined && page.updatedAt > postedAt };
}
