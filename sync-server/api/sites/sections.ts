import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import type { Queryable } from '../../store/db';
import { requireSite, requireSiteTree, siteForDelete, requireSiteRole } from './access';
import { keyAtEnd, keyForMove, type MovePosition } from './ordering';
import { presentSection } from './present';
import { checkedCondition, pathFromTitle, requireFreePath, requirePublishableSpace } from './refs';
import { insertSiteSpace, viewOf } from './service';
import { SiteTree, type SectionRow } from './tree';

/** Sections of a site in display order (groups flattened in place). */
export async function listSections(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
  page: PageRequest,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  const v = viewOf(ctx, access, tree, shareKey);
  const result = pageArray(tree.orderedSections(), page);
  return { ...result, items: result.items.map((s) => presentSection(v, s)) };
}

/** A section of a loaded tree, or 404. */
export function requireSection(tree: SiteTree, id: string): SectionRow {
  const section = tree.section(id);
  if (!section) throw notFound('Site section');
  return section;
}

/** The section as the caller sees it after a write. */
export async function sectionObjectFor(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  sectionId: string,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  return presentSection(viewOf(ctx, access, tree), requireSection(tree, sectionId));
}

/** Fractional key at the end of the top level (sections outside groups, and groups) or of a group. */
export function keyAtEndOf(tree: SiteTree, groupId: string | null): string {
  return keyAtEnd(groupId ? tree.sectionsOf(groupId) : tree.topLevel().map((i) => i.row));
}

export interface NewSection {
  spaceId: string;
  title?: string | null;
  icon?: string | null;
  siteSectionGroupId?: string;
}

/**
 * Adds a section holding one space. The first section of a site that already
 * publishes spaces at its root level first gathers those into a section named
 * after the site (the default one), so a site is either all root-level site
 * spaces or all sections.
 */
export async function addSection(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  body: NewSection,
) {
  const { tree, ...access } = await requireSiteTree(
    ctx,
    p,
    organizationId,
    siteId,
    'create',
    'add a section to this site',
  );
  const space = await requirePublishableSpace(ctx, access, body.spaceId);
  const groupId = body.siteSectionGroupId ?? null;
  if (groupId && !tree.group(groupId))
    throw badRequest(`Invalid siteSectionGroupId: unknown section group "${groupId}"`);
  const title = body.title ?? (space.title.trim().length >= 2 ? space.title.slice(0, 128) : 'Untitled section');
  const paths = tree.sections.map((s) => s.path);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    let topKey = keyAtEndOf(tree, null);
    const rootSpaces = tree.siteSpacesOf(null);
    if (!tree.hasSections && rootSpaces.length > 0) {
      const firstId = newId();
      const firstPath = pathFromTitle(tree.site.title, 'docs', paths);
      paths.push(firstPath);
      await insertSection(tx, {
        id: firstId,
        siteId,
        groupId: null,
        title: tree.site.title,
        path: firstPath,
        icon: null,
        position: topKey,
        defaultSiteSpace: tree.defaultSiteSpaceId(null) ?? null,
      });
      await tx.query('UPDATE site_spaces SET section_id = $2 WHERE site_id = $1 AND section_id IS NULL', [
        siteId,
        firstId,
      ]);
      await tx.query('UPDATE sites SET default_section_id = $2, default_site_space_id = NULL WHERE id = $1', [
        siteId,
        firstId,
      ]);
      topKey = keyAtEnd([{ id: firstId, position: topKey }]);
    }
    const position = groupId ? keyAtEndOf(tree, groupId) : topKey;
    await insertSection(tx, {
      id,
      siteId,
      groupId,
      title,
      path: pathFromTitle(title, 'section', paths),
      icon: body.icon ?? null,
      position,
      defaultSiteSpace: null,
    });
    await insertSiteSpace(tx, siteId, id, space.id, pathFromTitle(space.title, 'space', []));
  });
  return sectionObjectFor(ctx, p, organizationId, siteId, id);
}

interface SectionInsert {
  id: string;
  siteId: string;
  groupId: string | null;
  title: string;
  path: string;
  icon: string | null;
  position: string;
  defaultSiteSpace: string | null;
}

async function insertSection(db: Queryable, s: SectionInsert): Promise<void> {
  await db.query(
    'INSERT INTO site_sections (id, site_id, group_id, title, path, icon, position, default_site_space_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [s.id, s.siteId, s.groupId, s.title, s.path, s.icon, s.position, s.defaultSiteSpace],
  );
}

export interface SectionUpdate {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

/** PATCH a section: omitted fields keep their value, null clears condition/icon/description. */
export async function updateSection(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  sectionId: string,
  body: SectionUpdate,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'change this section');
  const section = requireSection(tree, sectionId);
  if (body.path !== undefined)
    requireFreePath(
      body.path,
      tree.sections.filter((s) => s.id !== sectionId).map((s) => s.path),
      'section',
    );
  if (
    body.defaultSiteSpace !== undefined &&
    !tree.siteSpacesOf(sectionId).some((s) => s.id === body.defaultSiteSpace)
  ) {
    throw badRequest(`Invalid defaultSiteSpace: "${body.defaultSiteSpace}" is not a site space of this section`);
  }
  const condition = body.condition === undefined ? section.condition : checkedCondition(body.condition);
  await ctx.db.query(
    `UPDATE site_sections SET title = $2, path = $3, default_site_space_id = $4, condition = $5, icon = $6, description = $7 WHERE id = $1`,
    [
      sectionId,
      body.title ?? section.title,
      body.path ?? section.path,
      body.defaultSiteSpace ?? section.default_site_space_id,
      condition,
      body.icon === undefined ? section.icon : body.icon,
      body.description === undefined ? section.description : body.description,
    ],
  );
  return sectionObjectFor(ctx, p, organizationId, siteId, sectionId);
}

/** Deletes a section and its site spaces; 204 also when it is not there. */
export async function deleteSection(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  sectionId: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, organizationId, siteId);
  if (!access) return;
  requireSiteRole(access.role, 'create', 'delete a section of this site');
  await ctx.db.query('DELETE FROM site_sections WHERE id = $1 AND site_id = $2', [sectionId, siteId]);
}

/**
 * Moves a section among its siblings: the sections of its group, or the
 * top-level items (sections and groups) when it is not in a group.
 */
export async function moveSection(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  sectionId: string,
  position: MovePosition,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'move this section');
  const section = requireSection(tree, sectionId);
  for (const ref of [position.before, position.after]) {
    if (ref !== undefined && !tree.section(ref)) throw badRequest(`Invalid position: unknown section "${ref}"`);
  }
  const siblings = section.group_id ? tree.sectionsOf(section.group_id) : tree.topLevel().map((i) => i.row);
  const key = keyForMove(siblings, sectionId, position, 'section');
  await ctx.db.query('UPDATE site_sections SET position = $2 WHERE id = $1', [sectionId, key]);
  return sectionObjectFor(ctx, p, organizationId, siteId, sectionId);
}
