import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { pageArray, type PageRequest } from '../../http/paging';
import { requireSite, requireSiteRole, requireSiteTree, siteForDelete } from './access';
import { keyForMove, type MovePosition } from './ordering';
import { presentSiteSpace } from './present';
import { checkedCondition, pathFromTitle, requireFreePath, requirePublishableSpace } from './refs';
import { insertSiteSpace, viewOf } from './service';
import { SiteTree, type SiteSpaceRow } from './tree';

/**
 * Site spaces of a site in display order; `onlyDefault` true keeps the
 * default site space of each section (or of the root level), false the others.
 */
export async function listSiteSpaces(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  query: { shareKey?: string; default?: boolean },
  page: PageRequest,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  const v = viewOf(ctx, access, tree, query.shareKey);
  const rows = tree
    .orderedSiteSpaces()
    .filter((s) => query.default === undefined || tree.isDefaultSiteSpace(s) === query.default);
  const result = pageArray(rows, page);
  return { ...result, items: result.items.map((s) => presentSiteSpace(v, s)) };
}

function requireSiteSpace(tree: SiteTree, id: string): SiteSpaceRow {
  const row = tree.siteSpace(id);
  if (!row) throw notFound('Site space');
  return row;
}

async function siteSpaceObjectFor(ctx: AppContext, p: Principal, organizationId: string, siteId: string, id: string) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  const tree = await SiteTree.load(ctx.db, access.site);
  return presentSiteSpace(viewOf(ctx, access, tree), requireSiteSpace(tree, id));
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
  organizationId: string,
  siteId: string,
  body: { spaceId: string; sectionId?: string },
) {
  const { tree, ...access } = await requireSiteTree(
    ctx,
    p,
    organizationId,
    siteId,
    'create',
    'add a space to this site',
  );
  const space = await requirePublishableSpace(ctx, access, body.spaceId);
  if (body.sectionId !== undefined && !tree.section(body.sectionId))
    throw badRequest(`Invalid sectionId: unknown section "${body.sectionId}"`);
  const sectionId = body.sectionId ?? tree.defaultSectionId() ?? null;
  requireNotInContainer(tree, sectionId, space.id);
  const path = pathFromTitle(
    space.title,
    'space',
    tree.siteSpacesOf(sectionId).map((s) => s.path),
  );
  await insertSiteSpace(ctx.db, siteId, sectionId, space.id, path);
  const after = await SiteTree.load(ctx.db, tree.site);
  const row = after.siteSpacesOf(sectionId).find((s) => s.path === path)!;
  return presentSiteSpace(viewOf(ctx, access, after), row);
}

/** PATCH a site space: its path, its condition (null removes it), or the space it publishes. */
export async function updateSiteSpace(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  id: string,
  body: { path?: string; condition?: string | null; spaceId?: string },
) {
  const { tree, ...access } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'change this site space');
  const row = requireSiteSpace(tree, id);
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
    await requirePublishableSpace(ctx, access, body.spaceId);
    requireNotInContainer(tree, row.section_id, body.spaceId, id);
  }
  const condition = body.condition === undefined ? row.condition : checkedCondition(body.condition);
  await ctx.db.query('UPDATE site_spaces SET path = $2, condition = $3, space_id = $4 WHERE id = $1', [
    id,
    body.path ?? row.path,
    condition,
    body.spaceId ?? row.space_id,
  ]);
  return siteSpaceObjectFor(ctx, p, organizationId, siteId, id);
}

/** Removes a space from the site; 204 also when it is not there. */
export async function deleteSiteSpace(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  id: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, organizationId, siteId);
  if (!access) return;
  requireSiteRole(access.role, 'create', 'remove a space from this site');
  await ctx.db.query('DELETE FROM site_spaces WHERE id = $1 AND site_id = $2', [id, siteId]);
}

/** Moves a site space among the site spaces of its section (or of the root level). */
export async function moveSiteSpace(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  id: string,
  position: MovePosition,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'move this site space');
  const row = requireSiteSpace(tree, id);
  for (const ref of [position.before, position.after]) {
    if (ref !== undefined && !tree.siteSpace(ref)) throw badRequest(`Invalid position: unknown site space "${ref}"`);
  }
  const key = keyForMove(tree.siteSpacesOf(row.section_id), id, position, 'site space');
  await ctx.db.query('UPDATE site_spaces SET position = $2 WHERE id = $1', [id, key]);
  return siteSpaceObjectFor(ctx, p, organizationId, siteId, id);
}
