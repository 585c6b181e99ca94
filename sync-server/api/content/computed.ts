import type { AppContext } from '../../context';
import type { RevisionRecord } from '../../docs/revision-store';
import { expandRevision, hasComputedPages, type ExpandSources } from '../../computed-content/expand';
import { organizationSpecs } from '../../openapi-specs/summaries';
import { cachedRead } from '../../store/read-cache';
import { publishedUrl } from '../openapi-specs/present';

/** What computed pages of an organization's content draw from (its specs are read only when a revision has some). */
export async function expandSources(ctx: AppContext, organizationId: string): Promise<ExpandSources> {
  return {
    db: ctx.db,
    // Through the read cache (any write invalidates it): a warm read of a computed page costs no query.
    specs: await cachedRead(ctx.db, `openapi-specs:${organizationId}`, () => organizationSpecs(ctx.db, organizationId)),
    specUrl: (slug) => publishedUrl(ctx, { organization_id: organizationId, slug }),
  };
}

/** `revision` as a content read with `computed` (GitBook's default: true) sees it. */
export async function readAs(
  ctx: AppContext,
  organizationId: string,
  revision: RevisionRecord,
  computed: boolean | undefined,
): Promise<RevisionRecord> {
  if (computed === false || !hasComputedPages(revision)) return revision;
  return expandRevision(revision, await expandSources(ctx, organizationId));
}
