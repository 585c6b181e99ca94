import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { newId } from '../../http/ids';
import type { PageRequest } from '../../http/paging';
import { pathFromTitle } from '../../sites/refs';
import type { SiteTree } from '../../sites/tree';
import {
  gatherRootSiteSpaces,
  insertSectionRow,
  placeSection,
  updateSectionRow,
  type SectionRow,
} from '../../store/sites';
import { requireSiteTree, type SiteRef } from './access';
import { itemObjectFor, listItems, requireItemToChange, type SiteItemKind } from './items';
import { keyAtEnd } from './ordering';
import { presentSection } from './present';
import { checkedCondition, requireFreePath, requirePublishableSpace } from './refs';
import { insertSiteSpace } from './site-spaces';

/** Top-level items (sections outside groups, and groups) in order: the siblings of groups and ungrouped sections. */
export const topLevelRows = (tree: SiteTree) => tree.topLevel().map((i) => i.row);

/** Sections: in a group, they move among its sections; outside, among the top-level items. */
export const SECTIONS: SiteItemKind<SectionRow, ReturnType<typeof presentSection>> = {
  table: 'site_sections',
  notFoundName: 'Site section',
  find: (tree, id) => tree.section(id),
  present: presentSection,
  phrases: { update: 'change this section', move: 'move this section', delete: 'delete a section of this site' },
  siblings: (tree, row) => (row.group_id ? tree.sectionsOf(row.group_id) : topLevelRows(tree)),
  siblingName: 'section',
  pointerName: 'section',
};

/** Sections of a site in display order (groups flattened in place). */
export function listSections(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  shareKey: string | undefined,
  page: PageRequest,
) {
  return listItems(ctx, p, ref, SECTIONS, (tree) => tree.orderedSections(), page, shareKey);
}

/** Fractional key at the end of the top level (sections outside groups, and groups) or of a group. */
export function keyAtEndOf(tree: SiteTree, groupId: string | null): string {
  return keyAtEnd(groupId ? tree.sectionsOf(groupId) : topLevelRows(tree));
}

/** A new section and the space it starts with. */
export interface NewSection {
  spaceId: string;
  title?: string | null;
  icon?: string | null;
  draft?: boolean;
  siteSectionGroupId?: string;
}

/**
 * Adds a section holding one space. The first section of a site that already
 * publishes spaces at its root level first gathers those into a section named
 * after the site (the default one), so a site is either all root-level site
 * spaces or all sections.
 */
export async function addSection(ctx: AppContext, p: Principal, ref: SiteRef, body: NewSection) {
  const { tree, ...access } = await requireSiteTree(ctx, p, ref, 'manage', 'add a section to this site');
  const space = await requirePublishableSpace(ctx, access.actor, ref.organizationId, body.spaceId);
  const groupId = body.siteSectionGroupId ?? null;
  requireGroup(tree, groupId);
  const title = body.title ?? (space.title.trim().length >= 2 ? space.title.slice(0, 128) : 'Untitled section');
  const paths = tree.sections.map((s) => s.path);
  const id = newId();
  const site_id = ref.siteId;
  await ctx.db.transaction(async (tx) => {
    let topKey = keyAtEndOf(tree, null);
    if (!tree.hasSections && tree.siteSpacesOf(null).length > 0) {
      const first = { id: newId(), site_id, group_id: null, title: tree.site.title, icon: null, position: topKey };
      const path = pathFromTitle(tree.site.title, 'docs', paths);
      paths.push(path);
      await insertSectionRow(tx, { ...first, path, default_site_space_id: tree.defaultSiteSpaceId(null) ?? null });
      await gatherRootSiteSpaces(tx, site_id, first.id);
      topKey = keyAtEnd([first]);
    }
    const position = groupId ? keyAtEndOf(tree, groupId) : topKey;
    const path = pathFromTitle(title, 'section', paths);
    const icon = body.icon ?? null;
    await insertSectionRow(tx, {
      id,
      site_id,
      group_id: groupId,
      title,
      path,
      icon,
      position,
      default_site_space_id: null,
      draft: body.draft ?? false,
    });
    await insertSiteSpace(tx, site_id, id, space.id, pathFromTitle(space.title, 'space', []));
  });
  return itemObjectFor(ctx, p, ref, SECTIONS, id);
}

/** 400 unless `groupId` (null = the top level) names a section group of the site. */
function requireGroup(tree: SiteTree, groupId: string | null): void {
  if (groupId !== null && !tree.group(groupId))
    throw badRequest(`Invalid siteSectionGroupId: unknown section group "${groupId}"`);
}

/**
 * Changes to a section: omitted fields keep their value, null clears
 * condition/icon/description; a localized text replaces the former one whole
 * (`{}` removes every override); `siteSectionGroupId` moves the section to the
 * end of that group (null: of the top level).
 */
export interface SectionUpdate {
  title?: string;
  localizedTitle?: Record<string, string>;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  draft?: boolean;
  description?: string | null;
  localizedDescription?: Record<string, string>;
  siteSectionGroupId?: string | null;
}

/** A localized text as stored: the overrides sent, none (null) for `{}`, the former one when omitted. */
function localized(sent: Record<string, string> | undefined, former: Record<string, string> | null) {
  if (sent === undefined) return former;
  return Object.keys(sent).length > 0 ? sent : null;
}

/** PATCH a section. */
export async function updateSection(ctx: AppContext, p: Principal, ref: SiteRef, id: string, body: SectionUpdate) {
  const { tree, row: section } = await requireItemToChange(ctx, p, ref, SECTIONS, id);
  if (body.path !== undefined)
    requireFreePath(
      body.path,
      tree.sections.filter((s) => s.id !== id).map((s) => s.path),
      'section',
    );
  if (body.defaultSiteSpace !== undefined && !tree.siteSpacesOf(id).some((s) => s.id === body.defaultSiteSpace))
    throw badRequest(`Invalid defaultSiteSpace: "${body.defaultSiteSpace}" is not a site space of this section`);
  const groupId = body.siteSectionGroupId;
  if (groupId !== undefined) requireGroup(tree, groupId);
  const regroup = groupId !== undefined && groupId !== section.group_id;
  await ctx.db.transaction(async (tx) => {
    if (regroup) await placeSection(tx, id, groupId, keyAtEndOf(tree, groupId));
    await updateSectionRow(tx, id, {
      title: body.title ?? section.title,
      path: body.path ?? section.path,
      default_site_space_id: body.defaultSiteSpace ?? section.default_site_space_id,
      condition: body.condition === undefined ? section.condition : checkedCondition(body.condition),
      icon: body.icon === undefined ? section.icon : body.icon,
      description: body.description === undefined ? section.description : body.description,
      draft: body.draft ?? section.draft,
      localized_title: localized(body.localizedTitle, section.localized_title),
      localized_description: localized(body.localizedDescription, section.localized_description),
    });
  });
  return itemObjectFor(ctx, p, ref, SECTIONS, id);
}
