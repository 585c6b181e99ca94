import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { newId } from '../../http/ids';
import type { PageRequest } from '../../http/paging';
import { pathFromTitle } from '../../sites/refs';
import { SiteTree } from '../../sites/tree';
import type { Queryable } from '../../store/db';
import { insertSiteSpaceRow, siteSpacePositions, updateSiteSpaceRow, type SiteSpaceRow } from '../../store/sites';
import { requireSiteTree, type SiteRef } from './access';
import { itemObjectFor, listItems, requireItemToChange, type SiteItemKind } from './items';
import { keyAtEnd } from './ordering';
import { presentSiteSpace } from './present';
import { checkedCondition, requireFreePath, requirePublishableSpace } from './refs';
import { viewOf } from './view';

/** Site spaces (the spaces a site publishes) move among those of their section, or of the root level. */
export const SITE_SPACES: SiteItemKind<SiteSpaceRow, ReturnType<typeof presentSiteSpace>> = {
  table: 'site_spaces',
  notFoundName: 'Site space',
  find: (tree, id) => tree.siteSpace(id),
  present: presentSiteSpace,
  phrases: { update: 'change this site space', move: 'move this site space', delete: 'remove a space from this site' },
  siblings: (tree, row) => tree.siteSpacesOf(row.section_id),
  siblingName: 'site space',
  pointerName: 'site space',
};

/**
 * Site spaces of a site in display order; `default` true keeps the default
 * site space of each section (or of the root level), false the others.
 */
export function listSiteSpaces(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  query: { shareKey?: string; default?: boolean },
  page: PageRequest,
) {
  const rows = (tree: SiteTree) =>
    tree.orderedSiteSpaces().filter((s) => query.default === undefined || tree.isDefaultSiteSpace(s) === query.default);
  return listItems(ctx, p, ref, SITE_SPACES, rows, page, query.shareKey);
}

/** Inserts a site space at the end of its container (a section, or the root level) and returns its path. */
export async function insertSiteSpace(
  db: Queryable,
  siteId: string,
  sectionId: string | null,
  spaceId: string,
  path: string,
): Promise<string> {
  const position = keyAtEnd(await siteSpacePositions(db, siteId, sectionId));
  await insertSiteSpaceRow(db, {
    id: newId(),
    site_id: siteId,
    section_id: sectionId,
    space_id: spaceId,
    path,
    position,
  });
  return path;
}

/** 400 when the space is already published in that section (or at the root level). */
function requireNotInContainer(tree: SiteTree, sectionId: string | null, spaceId: string, except?: string): void {
  if (tree.siteSpacesOf(sectionId).some((s) => s.space_id === spaceId && s.id !== except)) {
    throw badRequest(
      `Invalid spaceId: space "${spaceId}" is already published ${sectionId ? 'in this section' : 'on this site'}`,
    );
  }
}

/** Publishes a space on the site: in `sectionId`, else in the default section, else at the root level. */
export async function addSiteSpace(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  body: { spaceId: string; sectionId?: string },
) {
  const { tree, ...access } = await requireSiteTree(ctx, p, ref, 'manage', 'add a space to this site');
  const space = await requirePublishableSpace(ctx, access.actor, ref.organizationId, body.spaceId);
  if (body.sectionId !== undefined && !tree.section(body.sectionId))
    throw badRequest(`Invalid sectionId: unknown section "${body.sectionId}"`);
  const sectionId = body.sectionId ?? tree.defaultSectionId() ?? null;
  requireNotInContainer(tree, sectionId, space.id);
  const path = pathFromTitle(
    space.title,
    'space',
    tree.siteSpacesOf(sectionId).map((s) => s.path),
  );
  await insertSiteSpace(ctx.db, ref.siteId, sectionId, space.id, path);
  // The new row is found by its path, unique in its container.
  const after = await SiteTree.load(ctx.db, tree.site);
  const row = after.siteSpacesOf(sectionId).find((s) => s.path === path)!;
  return presentSiteSpace(viewOf(ctx, access, after), row);
}

/** PATCH a site space: its path, its condition (null removes it), or the space it publishes. */
export async function updateSiteSpace(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  id: string,
  body: { path?: string; condition?: string | null; spaceId?: string },
) {
  const { tree, access, row } = await requireItemToChange(ctx, p, ref, SITE_SPACES, id);
  if (body.path !== undefined)
    requireFreePath(
      body.path,
      tree
        .siteSpacesOf(row.section_id)
        .filter((s) => s.id !== id)
        .map((s) => s.path),
      'site space of this section',
    );
  if (body.spaceId !== undefined) {
    await requirePublishableSpace(ctx, access.actor, ref.organizationId, body.spaceId);
    requireNotInContainer(tree, row.section_id, body.spaceId, id);
  }
  await updateSiteSpaceRow(ctx.db, id, {
    path: body.path ?? row.path,
    condition: body.condition === undefined ? row.condition : checkedCondition(body.condition),
    space_id: body.spaceId ?? row.space_id,
  });
  return itemObjectFor(ctx, p, ref, SITE_SPACES, id);
}
