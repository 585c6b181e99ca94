import { generateKeyBetween } from 'fractional-indexing';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { newId } from '../../http/ids';
import type { PageRequest } from '../../http/paging';
import { SiteTree } from '../../sites/tree';
import type { Queryable } from '../../store/db';
import { deleteItemRow, insertGroupRow, placeSection, updateGroupRow, type GroupRow } from '../../store/sites';
import { requireSiteTree, siteForDelete, type SiteAccess, type SiteRef } from './access';
import { itemObjectFor, listItems, requireItemToChange, type SiteItemKind } from './items';
import { presentGroup } from './present';
import { keyAtEndOf, topLevelRows } from './sections';

/** Deleting a group keeps its sections: they go to the top level, where the group was. */
async function removeGroup(ctx: AppContext, access: SiteAccess, id: string): Promise<void> {
  const tree = await SiteTree.load(ctx.db, access.site);
  const group = tree.group(id);
  if (!group) return;
  await ctx.db.transaction(async (tx) => {
    await placeAtTopLevelAfter(
      tx,
      tree,
      group,
      tree.sectionsOf(id).map((s) => s.id),
    );
    await deleteItemRow(tx, 'site_section_groups', access.site.id, id);
  });
}

/** Section groups move among the top-level items (pointers name a top-level section or group). */
export const GROUPS: SiteItemKind<GroupRow, ReturnType<typeof presentGroup>> = {
  table: 'site_section_groups',
  notFoundName: 'Site section group',
  find: (tree, id) => tree.group(id),
  present: presentGroup,
  phrases: {
    update: 'change this section group',
    move: 'move this section group',
    delete: 'delete a section group of this site',
  },
  siblings: topLevelRows,
  siblingName: 'top-level section or group',
  remove: removeGroup,
};

/** Section groups of a site, in display order. */
export function listGroups(ctx: AppContext, p: Principal, ref: SiteRef, page: PageRequest) {
  const groups = (tree: SiteTree) => tree.topLevel().flatMap((i) => (i.type === 'group' ? [i.row] : []));
  return listItems(ctx, p, ref, GROUPS, groups, page);
}

/** Adds a group at the end of the site, moving the listed sections into it in that order. */
export async function addGroup(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  body: { title: string; icon?: string | null; sections?: string[] },
) {
  const { tree } = await requireSiteTree(ctx, p, ref, 'manage', 'add a section group to this site');
  const sectionIds = [...new Set(body.sections ?? [])];
  for (const s of sectionIds) if (!tree.section(s)) throw badRequest(`Invalid sections: unknown section "${s}"`);
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    const position = keyAtEndOf(tree, null);
    await insertGroupRow(tx, { id, site_id: ref.siteId, title: body.title, icon: body.icon ?? null, position });
    let key: string | null = null;
    for (const s of sectionIds) {
      key = generateKeyBetween(key, null);
      await placeSection(tx, s, id, key);
    }
  });
  return itemObjectFor(ctx, p, ref, GROUPS, id);
}

/** PATCH a group's title or icon (null removes the icon). */
export async function updateGroup(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  id: string,
  body: { title?: string; icon?: string | null },
) {
  const { row: group } = await requireItemToChange(ctx, p, ref, GROUPS, id);
  await updateGroupRow(ctx.db, id, {
    title: body.title ?? group.title,
    icon: body.icon === undefined ? group.icon : body.icon,
  });
  return itemObjectFor(ctx, p, ref, GROUPS, id);
}

/** Gives `sectionIds` top-level keys right after `group` (before its next top-level sibling), in order. */
async function placeAtTopLevelAfter(tx: Queryable, tree: SiteTree, group: GroupRow, sectionIds: string[]) {
  const top = topLevelRows(tree);
  const next = top[top.findIndex((r) => r.id === group.id) + 1]?.position ?? null;
  let low = group.position;
  for (const id of sectionIds) {
    low = next !== null && low < next ? generateKeyBetween(low, next) : generateKeyBetween(low, null);
    await placeSection(tx, id, null, low);
  }
}

/** Puts a section at the end of a group (201 with the group). */
export async function addSectionToGroup(ctx: AppContext, p: Principal, ref: SiteRef, id: string, sectionId: string) {
  const { tree } = await requireItemToChange(ctx, p, ref, GROUPS, id);
  const section = tree.section(sectionId);
  if (!section) throw badRequest(`Invalid sectionId: unknown section "${sectionId}"`);
  if (section.group_id === id) throw badRequest('The section is already in this group');
  await placeSection(ctx.db, sectionId, id, keyAtEndOf(tree, id));
  return itemObjectFor(ctx, p, ref, GROUPS, id);
}

/** Takes a section out of a group (to the top level, after the group); 204 also when it was not in it. */
export async function removeSectionFromGroup(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  id: string,
  sectionId: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, ref, 'manage', GROUPS.phrases.update);
  if (!access) return;
  const tree = await SiteTree.load(ctx.db, access.site);
  const group = tree.group(id);
  if (!group || tree.section(sectionId)?.group_id !== id) return;
  await placeAtTopLevelAfter(ctx.db, tree, group, [sectionId]);
}
