import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { forbidden, notFound } from '../../http/errors';
import { loadActor } from '../../access/actor';
import { installationSites } from '../../access/installation-actor';
import { can, subjectOn, type Actor } from '../../policy';
import { decideSite, type SiteAction, type SiteResource } from '../../policy/site';
import { SiteTree } from '../../sites/tree';
import { findSite, type SiteRow } from '../../store/sites';
import { actorForDelete, authorize, enforce, requireOrgActor } from '../authorize';

/**
 * Loading a site the caller may see. Who may do what is policy's
 * (`policy/site.ts`): sites follow the organization's roles, and guests and
 * non-members learn nothing (404).
 */

/** Which site a route addresses (its path parameters). */
export interface SiteRef {
  organizationId: string;
  siteId: string;
}

/** What a site route knows about its caller and the site. */
export interface SiteAccess {
  site: SiteRow;
  actor: Actor;
}

/** The sites of an organization as a policy resource. */
export const siteResource = (organizationId: string): SiteResource => ({ type: 'site', organizationId });

/**
 * Throws the REST error unless policy lets `actor` do `action` to the sites
 * of `organizationId`; `phrase` words a refusal for what this route does.
 */
export function authorizeSite(actor: Actor, action: SiteAction, organizationId: string, phrase?: string): void {
  const site = siteResource(organizationId);
  enforce(decideSite(subjectOn(actor, site), action, site, phrase));
}

/** The caller in an organization whose sites they may see; 404 for non-members and guests. */
export async function requireSiteActor(ctx: AppContext, p: Principal, organizationId: string): Promise<Actor> {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  authorize(actor, 'view', siteResource(organizationId));
  return actor;
}

/** A site the caller can see (404 otherwise), and 403 unless they may do `action` (worded by `phrase`). */
export async function requireSite(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  action: SiteAction = 'view',
  phrase?: string,
): Promise<SiteAccess> {
  if (p.integration) return installationSite(ctx, p, ref, action);
  const actor = await requireSiteActor(ctx, p, ref.organizationId);
  const site = await findSite(ctx.db, ref.organizationId, ref.siteId);
  if (!site) throw notFound('Site');
  authorizeSite(actor, action, ref.organizationId, phrase);
  return { site, actor };
}

/**
 * A site as an integration's token reaches it: an installation's reads the sites it runs on and
 * changes their adaptive schema (the scope guard lets that route through only with
 * site:adaptive:write); nothing else of sites, and an integration's own token no site at all.
 */
async function installationSite(ctx: AppContext, p: Principal, ref: SiteRef, action: SiteAction): Promise<SiteAccess> {
  const sites = await installationSites(ctx.db, ref.organizationId, p.userId);
  const site = sites?.includes(ref.siteId) ? await findSite(ctx.db, ref.organizationId, ref.siteId) : undefined;
  if (!site) throw notFound('Site');
  if (action !== 'view' && action !== 'edit-adaptive-schema')
    throw forbidden('An integration reads the sites it is installed on; it does not manage them');
  return { site, actor: await loadActor(ctx.db, ref.organizationId, p.userId) };
}

/** The sites of an organization an integration's token may list: the sites its installation runs on. */
export async function installationSiteIds(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
): Promise<readonly string[] | undefined> {
  if (!p.integration) return undefined;
  const sites = await installationSites(ctx.db, organizationId, p.userId);
  if (!sites?.length) throw notFound('Organization');
  return sites;
}

/** Like requireSite, with the site's whole structure. */
export async function requireSiteTree(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  action: SiteAction,
  phrase: string,
): Promise<SiteAccess & { tree: SiteTree }> {
  const access = await requireSite(ctx, p, ref, action, phrase);
  return { ...access, tree: await SiteTree.load(ctx.db, access.site) };
}

/**
 * For DELETE routes: the site when the caller may see it, else undefined
 * (DELETE of what one cannot see answers 204 like DELETE of what is gone);
 * 403 when they see it but may not do `action`.
 */
export async function siteForDelete(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  action: SiteAction,
  phrase: string,
): Promise<SiteAccess | undefined> {
  const actor = await actorForDelete(ctx.db, p, ref.organizationId);
  if (!actor || !can(actor, 'view', siteResource(ref.organizationId))) return undefined;
  const site = await findSite(ctx.db, ref.organizationId, ref.siteId);
  if (!site) return undefined;
  authorizeSite(actor, action, ref.organizationId, phrase);
  return { site, actor };
}
