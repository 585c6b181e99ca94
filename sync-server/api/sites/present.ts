import type { AppContext } from '../../context';
import type { AccessIndex } from '../../policy/access';
import { sitePermissions } from '../../policy/permissions';
import type { Role } from '../../policy/roles';
import { joinSitePath, siteBaseUrl, withShareKey } from '../../published-site/urls';
import { presentSpace, spaceNode } from '../spaces/present';
import type { GroupRow, SectionRow, SiteRow, SiteSpaceRow, SiteTree } from './tree';

/** What presenting site objects needs: the tree, the caller, and whether URLs carry the share key. */
export interface SiteView {
  ctx: AppContext;
  tree: SiteTree;
  role: Role;
  index: AccessIndex;
  /** Share key appended to published URLs (share-link sites, for admins or callers who passed it). */
  shareKey?: string;
}

/**
 * The share key published URLs should carry for this caller: on share-link
 * sites, admins (who hand the link out) always get it; others only when they
 * passed the right key as `?shareKey=`.
 */
export function shareKeyFor(site: SiteRow, role: Role, given: string | undefined): string | undefined {
  if (site.visibility !== 'share-link') return undefined;
  if (role === 'admin' || given === site.share_key) return site.share_key;
  return undefined;
}

/** Published URL of a section: the site base, plus the section path unless it is the default one. */
function sectionUrl(v: SiteView, section: SectionRow): string {
  const base = siteBaseUrl(v.ctx, v.tree.site);
  return v.tree.defaultSectionId() === section.id ? base : `${joinSitePath(base, section.path)}/`;
}

function siteSpaceUrl(v: SiteView, row: SiteSpaceRow): string {
  const section = row.section_id ? v.tree.section(row.section_id) : undefined;
  const base = section ? sectionUrl(v, section) : siteBaseUrl(v.ctx, v.tree.site);
  return v.tree.isDefaultSiteSpace(row) ? base : `${joinSitePath(base, row.path)}/`;
}

const published = (v: SiteView, url: string) =>
  v.tree.site.published ? { published: withShareKey(url, v.shareKey) } : {};

/** Row -> API `SiteSpace`. */
export function presentSiteSpace(v: SiteView, row: SiteSpaceRow) {
  const space = v.tree.spaces.get(row.space_id)!;
  const spaceObject = presentSpace(v.ctx, space, v.index.roleOf(spaceNode(space)));
  return {
    object: 'site-space' as const,
    id: row.id,
    path: row.path,
    ...(row.section_id ? { section: row.section_id } : {}),
    space: spaceObject,
    title: space.title.trim() === '' ? 'Untitled' : space.title,
    default: v.tree.isDefaultSiteSpace(row),
    ...(row.condition !== null ? { condition: row.condition } : {}),
    draft: false,
    hidden: false,
    hasAdvancedCustomizationFeature: false,
    urls: published(v, siteSpaceUrl(v, row)),
  };
}

/** Row -> API `SiteSection`, with its site spaces. */
export function presentSection(v: SiteView, row: SectionRow) {
  return {
    object: 'site-section' as const,
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: v.tree.defaultSectionId() === row.id,
    draft: false,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.group_id ? { sectionGroup: row.group_id } : {}),
    siteSpaces: v.tree.siteSpacesOf(row.id).map((s) => presentSiteSpace(v, s)),
    urls: published(v, sectionUrl(v, row)),
    ...(row.icon !== null ? { icon: row.icon } : {}),
  };
}

/** Row -> API `SiteSectionGroup`, with its sections. */
export function presentGroup(v: SiteView, row: GroupRow) {
  const sections = v.tree.sectionsOf(row.id).map((s) => presentSection(v, s));
  return {
    object: 'site-section-group' as const,
    id: row.id,
    title: row.title,
    draft: false,
    sections,
    children: sections,
    ...(row.icon !== null ? { icon: row.icon } : {}),
  };
}

/** The proxy as GitBook shows it: the origin the owner configured and what it forwards to. */
function proxyOf(ctx: AppContext, site: SiteRow) {
  return site.proxy ? { proxy: { origin: site.proxy, target: siteBaseUrl(ctx, site) } } : {};
}

/** Row -> API `Site` (`siteSpaces` is the number of site spaces; `shareKey` as for SiteView). */
export function presentSite(ctx: AppContext, s: SiteRow, role: Role, siteSpaces: number, shareKey?: string) {
  const base = siteBaseUrl(ctx, s);
  return {
    object: 'site' as const,
    id: s.id,
    type: s.type,
    appliedType: s.type,
    title: s.title,
    ...(s.hostname ? { hostname: s.hostname } : {}),
    ...(s.basename ? { basename: s.basename } : {}),
    ...proxyOf(ctx, s),
    visibility: s.visibility,
    defaultLevel: 'inherit' as const,
    permissions: sitePermissions(role),
    published: s.published,
    siteSpaces,
    createdAt: s.created_at.toISOString(),
    adaptiveContent: { enabled: s.adaptive_enabled },
    agentsContext: s.agents_context,
    features: [],
    urls: {
      location: ctx.urls.api(`/orgs/${s.organization_id}/sites/${s.id}`),
      app: ctx.urls.app(`/o/${s.organization_id}/sites/${s.id}`),
      preview: base,
      ...(s.published ? { published: withShareKey(base, shareKey) } : {}),
    },
  };
}

/** The Site of a loaded tree. */
export function presentSiteOf(v: SiteView) {
  return presentSite(v.ctx, v.tree.site, v.role, v.tree.siteSpaces.length, v.shareKey);
}

/** The site's structure as GitBook's `SiteStructure`: sections (and groups) when it has sections, else site spaces. */
export function presentStructure(v: SiteView) {
  if (!v.tree.hasSections)
    return { type: 'siteSpaces' as const, structure: v.tree.siteSpacesOf(null).map((s) => presentSiteSpace(v, s)) };
  return {
    type: 'sections' as const,
    structure: v.tree
      .topLevel()
      .map((item) => (item.type === 'section' ? presentSection(v, item.row) : presentGroup(v, item.row))),
  };
}
