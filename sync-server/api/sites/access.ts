import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { forbidden, notFound } from '../../http/errors';
import { AccessIndex, loadMembership, type OrgMembership } from '../../policy/access';
import { requireOrgMember } from '../../policy/guards';
import { atLeast, type Role } from '../../policy/roles';
import { queryOne } from '../../store/db';
import { SITE_COLUMNS, SiteTree, type SiteRow } from './tree';

/**
 * Who may do what with a docs site. Sites belong to an organization and follow
 * its roles, as in GitBook: members (any role) read, "create" manages the
 * structure and settings, "admin" deletes and reads the visitor signing key.
 * Guests and non-members learn nothing: 404.
 */

/** What a site route knows about its caller and the site. */
export interface SiteAccess {
  site: SiteRow;
  membership: OrgMembership;
  role: Role;
  /** The caller's roles on the site's spaces (for the embedded Space objects). */
  index: AccessIndex;
}

/** A site row by id, within one organization. */
export function loadSite(ctx: AppContext, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return queryOne<SiteRow>(ctx.db, `SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1 AND organization_id = $2`, [
    siteId,
    organizationId,
  ]);
}

/** The caller's role on the organization's sites; 404 for non-members and guests. */
export async function requireSiteReader(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
): Promise<{ membership: OrgMembership; role: Role }> {
  const membership = await requireOrgMember(ctx.db, organizationId, p.userId);
  if (!membership.role) throw notFound('Organization');
  return { membership, role: membership.role };
}

/** A site the caller can see (404 otherwise), with their role. */
export async function requireSite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
): Promise<SiteAccess> {
  const { membership, role } = await requireSiteReader(ctx, p, organizationId);
  const site = await loadSite(ctx, organizationId, siteId);
  if (!site) throw notFound('Site');
  return { site, membership, role, index: await AccessIndex.load(ctx.db, membership) };
}

/** Like requireSite, plus the whole tree, and 403 unless the caller has `required`. */
export async function requireSiteTree(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  required: Role,
  action: string,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  requireSiteRole(access.role, required, action);
  return { ...access, tree: await SiteTree.load(ctx.db, access.site) };
}

export function requireSiteRole(role: Role, required: Role, action: string): void {
  if (!atLeast(role, required)) throw forbidden(`You need the "${required}" role in this organization to ${action}`);
}

/**
 * For DELETE routes: the site when the caller may see it, else undefined
 * (DELETE of what one cannot see answers 204 like DELETE of what is gone).
 */
export async function siteForDelete(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
): Promise<SiteAccess | undefined> {
  const membership = await loadMembership(ctx.db, organizationId, p.userId);
  if (!membership.role) return undefined;
  const site = await loadSite(ctx, organizationId, siteId);
  if (!site) return undefined;
  return { site, membership, role: membership.role, index: await AccessIndex.load(ctx.db, membership) };
}
