import type { AppContext } from '../context';
import type { RevisionRecord } from '../docs/revision-store';
import { expandRevision } from '../computed-content/expand';
import type { PublishedState } from './state';

/**
 * The revisions a published site shows: its spaces' revisions with computed pages expanded from the
 * organization's specs as the site's state read them. The state's signature holds those specs'
 * versions, so every page rendered from an expansion is keyed by them: a new spec version shows
 * at once, and a cached page never mixes versions.
 */
export function siteRevisions(ctx: AppContext, state: PublishedState) {
  const sources = {
    db: ctx.db,
    specs: state.openapiSpecs,
    specUrl: (slug: string) => ctx.urls.api(`/openapi/${state.organizationId}/${slug}.json`),
  };
  return {
    async get(id: string): Promise<RevisionRecord | undefined> {
      const revision = await ctx.revisions.get(id);
      return revision && expandRevision(revision, sources);
    },
  };
}
