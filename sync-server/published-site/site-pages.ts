import type { RevisionView } from '../docs/revision-view';
import type { StoredPage } from '../docs/revision-store';
import type { Revisions } from '../docs/revisions';
import type { SectionRow, SiteSpaceRow } from '../store/sites';
import { encodePath, linkTargetsOf } from './page';
import { audienceView, type HiddenPages } from './page-audience';
import { siteSpacePath, siteSpacesIn, type VisibleSite } from './resolve';

/**
 * Every page one visitor may read on a site, in reading order: the visible
 * sections and site spaces (adaptive conditions applied by visibleSite), the
 * current revision of each space, and its document pages that are not
 * hidden and whose page condition (page-audience.ts) the visitor passes. What search, the sitemap and llms.txt are made of, so none of them
 * can show a page the site itself would not.
 */
export interface SitePage {
  page: StoredPage;
  /** Path from the site root (no leading '/'). */
  path: string;
  title: string;
  description?: string;
  markdown: string;
  /** Where it sits: section and site space titles (empty parts left out). */
  where: string[];
  section?: SectionRow;
  siteSpace: SiteSpaceRow;
  updated: Date;
  /** Pages of its revision hidden from this visitor, when any: its links to them are shown as text (hidden-links.ts). */
  hidden?: HiddenPages;
}

/** The site spaces a visitor sees, with their section. */
export function visibleSiteSpaces(v: VisibleSite): { section?: SectionRow; siteSpace: SiteSpaceRow }[] {
  const sections: (SectionRow | undefined)[] = v.tree.hasSections ? v.sections : [undefined];
  return sections.flatMap((section) => siteSpacesIn(v, section).map((siteSpace) => ({ section, siteSpace })));
}

/** Pages of one revision under the URL path `spaceBase` (relative to the site root). */
export function documentPages(view: RevisionView, spaceBase: string): { page: StoredPage; path: string }[] {
  const { firstPage } = linkTargetsOf(view);
  const out: { page: StoredPage; path: string }[] = [];
  const walk = (list: readonly StoredPage[]) => {
    for (const p of list) {
      if (p.hidden === true) continue;
      if (p.type === 'document')
        out.push({ page: p, path: p === firstPage ? spaceBase : spaceBase + encodePath(String(p.path)) });
      walk(p.pages ?? []);
    }
  };
  walk(view.revision.pages);
  return out;
}

/** Every page `v`'s visitor may read. */
export async function sitePages(v: VisibleSite, revisions: Pick<Revisions, 'get'>): Promise<SitePage[]> {
  const out: SitePage[] = [];
  const many = visibleSiteSpaces(v);
  for (const { section, siteSpace } of many) {
    const space = v.tree.spaces.get(siteSpace.space_id);
    const revision = space && (await revisions.get(space.revision));
    if (!space || !revision) continue;
    const { view, hidden } = audienceView(revision, v);
    const where = [
      ...(section && v.sections.length > 1 ? [section.title] : []),
      ...(siteSpacesIn(v, section).length > 1 ? [space.title || 'Untitled'] : []),
    ];
    for (const { page, path } of documentPages(view, siteSpacePath(v, section, siteSpace))) {
      out.push({
        page,
        path,
        title: String(page.title ?? 'Untitled'),
        ...(typeof page.description === 'string' && page.description ? { description: page.description } : {}),
        markdown: String(page.markdown ?? ''),
        where,
        section,
        siteSpace,
        updated: revision.createdAt,
        ...(hidden ? { hidden } : {}),
      });
    }
  }
  return out;
}
