import { generateKeyBetween } from 'fractional-indexing';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import type { Queryable } from '../../store/db';
import { requireSite, requireSiteRole, requireSiteTree, siteForDelete } from './access';
import { keyForMove, type MovePosition } from './ordering';
import { presentGroup } from './present';
import { keyAtEndOf } from './sections';
import { viewOf } from './service';
import { SiteTree, type GroupRow } from './tree';

/** Section groups of a site, in display order. */
export async function listGroups(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  page: PageRequest,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  const v = viewOf(ctx, access, tree);
  const groups = tree.topLevel().flatMap((i) => (i.type === 'group' ? [i.row] : []));
  const result = pageArray(groups, page);
  return { ...result, items: result.items.map((g) => presentGroup(v, g)) };
}

function requireGroup(tree: SiteTree, id: string): GroupRow {
  const group = tree.group(id);
  if (!group) throw notFound('Site section group');
  return group;
}

async function groupObjectFor(ctx: AppContext, p: Principal, organizationId: string, siteId: string, groupId: string) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  return presentGroup(viewOf(ctx, access, tree), requireGroup(tree, groupId));
}

/** Adds a group at the end of the site, moving the listed sections into it in that order. */
export async function addGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  body: { title: string; icon?: string | null; sections?: string[] },
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'add a section group to this site');
  const sectionIds = [...new Set(body.sections ?? [])];
  for (const s of sectionIds) if (!tree.section(s)) throw badRequest(`Invalid sections: unknown section "${s}"`);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    await tx.query('INSERT INTO site_section_groups (id, site_id, title, icon, position) VALUES ($1, $2, $3, $4, $5)', [
      id,
      siteId,
      body.title,
      body.icon ?? null,
      keyAtEndOf(tree, null),
    ]);
    let key: string | null = null;
    for (const s of sectionIds) {
      key = generateKeyBetween(key, null);
      await tx.query('UPDATE site_sections SET group_id = $2, position = $3 WHERE id = $1', [s, id, key]);
    }
  });
  return groupObjectFor(ctx, p, organizationId, siteId, id);
}

/** PATCH a group's title or icon (null removes the icon). */
export async function updateGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  groupId: string,
  body: { title?: string; icon?: string | null },
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'change this section group');
  const group = requireGroup(tree, groupId);
  await ctx.db.query('UPDATE site_section_groups SET title = $2, icon = $3 WHERE id = $1', [
    groupId,
    body.title ?? group.title,
    body.icon === undefined ? group.icon : body.icon,
  ]);
  return groupObjectFor(ctx, p, organizationId, siteId, groupId);
}

/** Deletes a group; its sections stay, at the top level where the group was. */
export async function deleteGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  groupId: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, organizationId, siteId);
  if (!access) return;
  requireSiteRole(access.role, 'create', 'delete a section group of this site');
  const tree = await SiteTree.load(ctx.db, access.site);
  const group = tree.group(groupId);
  if (!group) return;
  await ctx.db.transaction(async (tx) => {
    await placeAtTopLevelAfter(
      tx,
      tree,
      group,
      tree.sectionsOf(groupId).map((s) => s.id),
    );
    await tx.query('DELETE FROM site_section_groups WHERE id = $1', [groupId]);
  });
}

/** Gives `sectionIds` top-level keys right after `group` (before its next top-level sibling), in order. */
async function placeAtTopLevelAfter(
  tx: Queryable,
  tree: SiteTree,
  group: GroupRow,
  sectionIds: string[],
): Promise<void> {
  const top = tree.topLevel().map((i) => i.row);
  const next = top[top.findIndex((r) => r.id === group.id) + 1]?.position ?? null;
  let low = group.position;
  for (const id of sectionIds) {
    low = next !== null && low < next ? generateKeyBetween(low, next) : generateKeyBetween(low, null);
    await tx.query('UPDATE site_sections SET group_id = NULL, position = $2 WHERE id = $1', [id, low]);
  }
}

/** Puts a section at the end of a group (201 with the group). */
export async function addSectionToGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'change this section group');
  requireGroup(tree, groupId);
  const section = tree.section(sectionId);
  if (!section) throw badRequest(`Invalid sectionId: unknown section "${sectionId}"`);
  if (section.group_id === groupId) throw badRequest('The section is already in this group');
  await ctx.db.query('UPDATE site_sections SET group_id = $2, position = $3 WHERE id = $1', [
    sectionId,
    groupId,
    keyAtEndOf(tree, groupId),
  ]);
  return groupObjectFor(ctx, p, organizationId, siteId, groupId);
}

/** Takes a section out of a group (to the top level, after the group); 204 also when it was not in it. */
export async function removeSectionFromGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, organizationId, siteId);
  if (!access) return;
  requireSiteRole(access.role, 'create', 'change this section group');
  const tree = await SiteTree.load(ctx.db, access.site);
  const group = tree.group(groupId);
  if (!group || tree.section(sectionId)?.group_id !== groupId) return;
  await placeAtTopLevelAfter(ctx.db, tree, group, [sectionId]);
}

/** Moves a group among the top-level items (pointers name a top-level section or group). */
export async function moveGroup(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  groupId: string,
  position: MovePosition,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'move this section group');
  requireGroup(tree, groupId);
  const key = keyForMove(
    tree.topLevel().map((i) => i.row),
    groupId,
    position,
    'top-level section or group',
  );
  await ctx.db.query('UPDATE site_section_groups SET position = $2 WHERE id = $1', [groupId, key]);
  return groupObjectFor(ctx, p, organizationId, siteId, groupId);
}
