import type { RevisionRecord, StoredPage } from '../docs/revision-store';
import { viewOf, type RevisionView } from '../docs/revision-view';
import { visitorPasses } from '../sites/conditions';
import type { VisibleSite } from './resolve';

/**
 * Page-level adaptive content: a page with a `condition` is part of the
 * published site only for visitors who pass it, and its sub-pages go with it.
 * Everything a reader can reach (the page itself, navigation, previous/next,
 * search, sitemap.xml, llms.txt, the `.md` copy) reads pages through the view
 * this module gives, so none of them can show a page its author meant to hide.
 * As for sections and site spaces, conditions count only while the site has
 * adaptive content enabled, and a condition that cannot be evaluated hides.
 */

/** The distinct page conditions of a revision, in first-seen order (computed once per revision). */
const conditionsOf = new WeakMap<RevisionRecord, string[]>();
/** Pruned views of a revision, by which of its conditions passed ('1'/'0' per condition). */
const prunedViews = new WeakMap<RevisionRecord, Map<string, AudienceView>>();

function pageConditions(revision: RevisionRecord): string[] {
  let found = conditionsOf.get(revision);
  if (found) return found;
  const seen = new Set<string>();
  const walk = (pages: readonly StoredPage[]) => {
    for (const p of pages) {
      if (typeof p.condition === 'string' && p.condition.trim() !== '') seen.add(p.condition);
      walk(p.pages ?? []);
    }
  };
  walk(revision.pages);
  found = [...seen];
  conditionsOf.set(revision, found);
  return found;
}

/** The pages of a revision left out for one audience (to render links to them as text: hidden-links.ts). */
export interface HiddenPages {
  /** The whole revision (links resolve against it: what they pointed to, had the page been visible). */
  full: RevisionView;
  /** Ids of the pages left out, sub-pages included. */
  ids: ReadonlySet<string>;
}

/** What one visitor may read of a revision, and a key naming that audience (for caches). */
export interface AudienceView {
  view: RevisionView;
  /** '' when every page is visible; else one '1'/'0' per condition of the revision. */
  key: string;
  /** What is left out, when anything is. */
  hidden?: HiddenPages;
}

/** The revision as `visible`'s visitor may read it. */
export function audienceView(revision: RevisionRecord, visible: VisibleSite): AudienceView {
  const conditions = pageConditions(revision);
  if (conditions.length === 0 || !visible.tree.site.adaptive_enabled) return { view: viewOf(revision), key: '' };
  const passes = conditions.map((c) => visitorPasses(c, visible.claims));
  if (passes.every(Boolean)) return { view: viewOf(revision), key: '' };
  const key = passes.map((p) => (p ? '1' : '0')).join('');
  let views = prunedViews.get(revision);
  if (!views) prunedViews.set(revision, (views = new Map()));
  let audience = views.get(key);
  if (!audience) {
    const failed = new Set(conditions.filter((_, i) => !passes[i]));
    const view = viewOf({ ...revision, pages: prune(revision.pages, failed) });
    const full = viewOf(revision);
    const ids = new Set([...full.pagesById.keys()].filter((id) => !view.pagesById.has(id)));
    audience = { view, key, hidden: { full, ids } };
    views.set(key, audience);
  }
  return audience;
}

/**
 * The page tree without the pages whose condition is in `hidden` (and their
 * sub-pages). Unchanged subtrees are the revision's own objects.
 */
function prune(pages: StoredPage[], hidden: ReadonlySet<string>): StoredPage[] {
  let out: StoredPage[] | undefined;
  pages.forEach((p, i) => {
    const gone = typeof p.condition === 'string' && hidden.has(p.condition);
    const children = !gone && p.pages && p.pages.length > 0 ? prune(p.pages, hidden) : p.pages;
    if (!gone && children === p.pages) {
      out?.push(p);
      return;
    }
    out ??= pages.slice(0, i);
    if (!gone) out.push({ ...p, pages: children });
  });
  return out ?? pages;
}

/**
 * A key naming which pages `visible`'s visitor may read across the site (for
 * caches of site-wide outputs: search index, sitemap, llms.txt).
 */
export async function siteAudienceKey(
  visible: VisibleSite,
  revisionOf: (spaceId: string) => Promise<RevisionRecord | undefined>,
): Promise<string> {
  if (!visible.tree.site.adaptive_enabled) return '';
  const keys: string[] = [];
  for (const spaceId of new Set([...visible.siteSpaces.values()].flat().map((s) => s.space_id))) {
    const revision = await revisionOf(spaceId);
    keys.push(revision ? audienceView(revision, visible).key : '');
  }
  return keys.join(',');
}
