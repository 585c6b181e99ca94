import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { can, type Actor } from '../../policy';
import { SiteTree } from '../../sites/tree';
import type { SiteRow } from '../../store/sites';
import { requireSite, siteResource, type SiteAccess, type SiteRef } from './access';

/** What presenting site objects needs: the tree, the caller, and whether URLs carry the share key. */
export interface SiteView {
  ctx: AppContext;
  tree: SiteTree;
  actor: Actor;
  /** Share key appended to published URLs (share-link sites, for admins or callers who passed it). */
  shareKey?: string;
}

/**
 * The share key published URLs should carry for this caller: on share-link
 * sites, those who administer the site (they hand the link out) always get
 * it; others only when they passed the right key as `?shareKey=`.
 */
export function shareKeyFor(site: SiteRow, actor: Actor, given: string | undefined): string | undefined {
  if (site.visibility !== 'share-link') return undefined;
  if (given === site.share_key || can(actor, 'admin', siteResource(site.organization_id))) return site.share_key;
  return undefined;
}

/** The presentation context of a loaded site for its caller. */
export function viewOf(ctx: AppContext, access: SiteAccess, tree: SiteTree, givenShareKey?: string): SiteView {
  return { ctx, tree, actor: access.actor, shareKey: shareKeyFor(tree.site, access.actor, givenShareKey) };
}

/** A site the caller can see (404 otherwise), loaded whole and ready to present. */
export async function loadView(ctx: AppContext, p: Principal, ref: SiteRef, givenShareKey?: string) {
  const access = await requireSite(ctx, p, ref);
  return viewOf(ctx, access, await SiteTree.load(ctx.db, access.site), givenShareKey);
}
