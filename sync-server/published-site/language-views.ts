import type { RevisionRecord } from '../docs/revision-store';
import type { RevisionView } from '../docs/revision-view';
import type { LanguageVariant } from './language-variants';
import { audienceView } from './page-audience';
import type { VisibleSite } from './resolve';

/**
 * The other languages of a page, as the visitor may read them: the revision
 * of each language variant's space, pruned by page conditions as that
 * variant's own pages would be (page-audience.ts), so a language link never
 * leads to a page the visitor could not open. Loaded before the page cache is
 * asked, because what those views hold is part of the rendered page (its
 * language links and alternates): `key` names them for the cache key.
 */
export interface LanguageViews {
  /** Views by site space id. */
  views: ReadonlyMap<string, RevisionView>;
  /** The revisions and audiences of the views, for cache keys ('' without language variants). */
  key: string;
}

/** The views of `languages` (a site space whose space or revision is missing is left out). */
export async function languageViews(
  visible: VisibleSite,
  languages: readonly LanguageVariant[],
  revisionOf: (id: string) => Promise<RevisionRecord | undefined>,
): Promise<LanguageViews> {
  const views = new Map<string, RevisionView>();
  const keys: string[] = [];
  for (const { siteSpace } of languages) {
    const space = visible.tree.spaces.get(siteSpace.space_id);
    const revision = space && (await revisionOf(space.revision));
    if (!revision) continue;
    const audience = audienceView(revision, visible);
    views.set(siteSpace.id, audience.view);
    keys.push(`${siteSpace.id}:${revision.id}:${audience.key}`);
  }
  return { views, key: keys.join(',') };
}
