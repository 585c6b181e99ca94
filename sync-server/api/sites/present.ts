import type { AppContext } from '../../context';
import { spaceNode } from '../../access/resources';
import { subjectOn, type Actor } from '../../policy';
import { sitePermissions } from '../../policy/site';
import { sectionUrl, siteBaseUrl, siteSpaceUrl, withShareKey } from '../../sites/urls';
import type { GroupRow, SectionRow, SiteRow, SiteSpaceRow } from '../../store/sites';
import { presentSpace } from '../spaces/present';
import { siteResource } from './access';
import type { SiteView } from './view';

/** Site rows -> API objects (GitBook's Site, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure). */

const published = (v: SiteView, url: string) =>
  v.tree.site.published ? { published: withShareKey(url, v.shareKey) } : {};

/** Row -> API `SiteSpace`. */
export function presentSiteSpace(v: SiteView, row: SiteSpaceRow) {
  const space = v.tree.spaces.get(row.space_id)!;
  const spaceObject = presentSpace(v.ctx, space, v.actor.access.roleOf(spaceNode(space)));
  const inDraftSection = row.section_id !== null && v.tree.section(row.section_id)?.draft === true;
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
    // In a draft section it is not on the published site either.
    urls: inDraftSection ? {} : published(v, siteSpaceUrl(v.ctx.urls, v.tree, row)),
  };
}

/** Row -> API `SiteSection`, with its site spaces. */
export function presentSection(v: SiteView, row: SectionRow) {
  return {
    object: 'site-section' as const,
    id: row.id,
    title: row.title,
    ...(row.localized_title ? { localizedTitle: row.localized_title } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.localized_description ? { localizedDescription: row.localized_description } : {}),
    default: v.tree.defaultSectionId() === row.id,
    draft: row.draft,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.group_id ? { sectionGroup: row.group_id } : {}),
    siteSpaces: v.tree.siteSpacesOf(row.id).map((s) => presentSiteSpace(v, s)),
    // A draft section is not on the published site: no published URL to give.
    urls: row.draft ? {} : published(v, sectionUrl(v.ctx.urls, v.tree, row)),
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
  return site.proxy ? { proxy: { origin: site.proxy, target: siteBaseUrl(ctx.urls, site) } } : {};
}

/** Row -> API `Site` (`siteSpaces` is the number of site spaces; `shareKey` as for SiteView). */
export function presentSite(ctx: AppContext, s: SiteRow, actor: Actor, siteSpaces: number, shareKey?: string) {
  const base = siteBaseUrl(ctx.urls, s);
  const resource = siteResource(s.organization_id);
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
    permissions: sitePermissions(subjectOn(actor, resource), resource),
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
  return presentSite(v.ctx, v.tree.site, v.actor, v.tree.siteSpaces.length, v.shareKey);
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
