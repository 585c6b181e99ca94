import type { SiteTree } from '../sites/tree';
import type { SectionRow, SiteSpaceRow } from '../store/sites';
import { visitorPasses } from '../sites/conditions';

/**
 * What one visitor sees of a site's structure, and which section and site
 * space a URL path addresses. Conditions count only while adaptive content
 * is enabled; site spaces whose space was deleted are never shown. A hidden
 * default falls back to the first visible item, so every visitor has a home.
 */
export interface VisibleSite {
  tree: SiteTree;
  sections: SectionRow[];
  /** Visible site spaces per section id ('' = root level). */
  siteSpaces: Map<string, SiteSpaceRow[]>;
  defaultSection?: SectionRow;
  /** A key naming what is visible, for caching rendered pages per audience. */
  key: string;
  /** The visitor's claims (page conditions are evaluated per revision: see page-audience.ts). */
  claims: Record<string, unknown>;
}

const containerKey = (sectionId: string | null) => sectionId ?? '';

/** What a visitor with `claims` sees of a site's structure. */
export function visibleSite(tree: SiteTree, claims: Record<string, unknown>): VisibleSite {
  const adaptive = tree.site.adaptive_enabled;
  const passes = (condition: string | null) => !adaptive || visitorPasses(condition, claims);
  const spaceLive = (s: SiteSpaceRow) => tree.spaces.get(s.space_id)?.deleted_at === null;
  const siteSpaces = new Map<string, SiteSpaceRow[]>();
  // Draft sections are not live: readers never see them.
  const sections = tree.hasSections ? tree.orderedSections().filter((s) => !s.draft && passes(s.condition)) : [];
  for (const container of tree.hasSections ? sections.map((s) => s.id) : [null]) {
    const visible = tree.siteSpacesOf(container).filter((s) => spaceLive(s) && passes(s.condition));
    siteSpaces.set(containerKey(container), visible);
  }
  const chosen = tree.defaultSectionId();
  const defaultSection = sections.find((s) => s.id === chosen) ?? sections[0];
  const key = [...sections.map((s) => s.id), '|', ...[...siteSpaces.values()].flat().map((s) => s.id)].join(',');
  return { tree, sections, siteSpaces, defaultSection, key, claims };
}

/** Visible site spaces of a section (or of the root level). */
export function siteSpacesIn(v: VisibleSite, section: SectionRow | undefined): SiteSpaceRow[] {
  return v.siteSpaces.get(containerKey(section?.id ?? null)) ?? [];
}

/** The default site space of a section as this visitor sees it. */
export function defaultSiteSpaceIn(v: VisibleSite, section: SectionRow | undefined): SiteSpaceRow | undefined {
  const visible = siteSpacesIn(v, section);
  const chosen = v.tree.defaultSiteSpaceId(section?.id ?? null);
  return visible.find((s) => s.id === chosen) ?? visible[0];
}

/** What a URL path addresses on a site: a section (on sites with sections), a site space and a page path. */
export interface Located {
  section?: SectionRow;
  siteSpace: SiteSpaceRow;
  /** The page path inside the space ('' = its first page). */
  pagePath: string;
}

/**
 * Splits `segments` into section, site space and page path: a leading
 * segment naming a visible section selects it (else the default section),
 * then one naming a visible site space of that section (else its default).
 * Undefined when the visitor can see nothing there.
 */
export function locate(v: VisibleSite, segments: string[]): Located | undefined {
  let rest = segments;
  let section: SectionRow | undefined;
  if (v.tree.hasSections) {
    section = v.sections.find((s) => s.path === rest[0]);
    if (section) rest = rest.slice(1);
    else section = v.defaultSection;
    if (!section) return undefined;
  }
  let siteSpace = siteSpacesIn(v, section).find((s) => s.path === rest[0]);
  if (siteSpace) rest = rest.slice(1);
  else siteSpace = defaultSiteSpaceIn(v, section);
  if (!siteSpace) return undefined;
  return { section, siteSpace, pagePath: rest.join('/') };
}

/** URL path (from the site root, no leading '/') of a site space: default items have no segment. */
export function siteSpacePath(v: VisibleSite, section: SectionRow | undefined, siteSpace: SiteSpaceRow): string {
  const parts: string[] = [];
  if (section && section.id !== v.defaultSection?.id) parts.push(section.path);
  if (siteSpace.id !== defaultSiteSpaceIn(v, section)?.id) parts.push(siteSpace.path);
  return parts.map((p) => `${encodeURIComponent(p)}/`).join('');
}
