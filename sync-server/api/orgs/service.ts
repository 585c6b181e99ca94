import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import type { RoleOrNone } from '../../policy/roles';
import { addDomainClaims } from '../../store/domain-claims';
import { insertMember } from '../../store/members';
import {
  hostnameTakenByAnother,
  insertOrganizationRow,
  listOrganizationRowsByEmailDomain,
  listOrganizationRowsOfUser,
  loadOrganizationRow,
  updateOrganizationRow,
  type OrgRow,
} from '../../store/organizations';
import { findSite } from '../../store/sites';
import { requireOrgActor, requireOrgPermission } from '../authorize';
import { storedRole } from '../members/membership';
import { presentOrganization } from './present';

async function requireOrganizationRow(ctx: AppContext, id: string): Promise<OrgRow> {
  const org = await loadOrganizationRow(ctx.db, id);
  if (!org) throw notFound('Organization');
  return org;
}

/** Lower-cased and de-duplicated: domains compare case-insensitively. */
function normalizeDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.toLowerCase()))];
}

/** Organizations the caller belongs to, oldest membership first. */
export async function listOrganizations(ctx: AppContext, p: Principal, page: PageRequest) {
  const { rows, total } = await listOrganizationRowsOfUser(ctx.db, p.userId, page);
  return listPage(
    rows.map((r) => presentOrganization(ctx, r, storedRole(r.role))),
    total,
    page,
  );
}

/** Creates an organization; its creator becomes its first admin. */
export async function createOrganization(
  ctx: AppContext,
  p: Principal,
  body: { title: string; emailDomains?: string[] },
) {
  const id = newId();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const emailDomains = normalizeDomains(body.emailDomains ?? []);
    await insertOrganizationRow(tx, { id, title: body.title.trim(), emailDomains, createdAt: now });
    await insertMember(tx, { organizationId: id, userId: p.userId, role: 'admin', sso: false, joinedAt: now });
    // Each declared domain is a claim, pending until proved (api/domains): nothing acts on it before.
    await addDomainClaims(tx, id, emailDomains, now);
  });
  return presentOrganization(ctx, await requireOrganizationRow(ctx, id), 'admin');
}

/** getOrganizationById: any member (guests included); 404 for everyone else. */
export async function getOrganization(ctx: AppContext, p: Principal, organizationId: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  return presentOrganization(ctx, await requireOrganizationRow(ctx, organizationId), actor.membership.role);
}

export interface OrganizationUpdate {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: RoleOrNone;
  defaultContent?: { type: 'site'; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/** PATCH organization (policy's `update`). */
export async function updateOrganization(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: OrganizationUpdate,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'update');
  if (body.defaultContent && !(await findSite(ctx.db, organizationId, body.defaultContent.site)))
    throw badRequest(`Invalid default content: no site "${body.defaultContent.site}" in this organization`);
  if (body.hostname && (await hostnameTakenByAnother(ctx.db, body.hostname, organizationId)))
    throw conflict(`The hostname "${body.hostname}" is already used by another organization`);
  const emailDomains = body.emailDomains && normalizeDomains(body.emailDomains);
  if (emailDomains) await addDomainClaims(ctx.db, organizationId, emailDomains, ctx.clock.now());
  await updateOrganizationRow(ctx.db, organizationId, {
    title: body.title?.trim(),
    emailDomains,
    hostname: body.hostname,
    defaultRole: body.defaultRole,
    defaultContent: body.defaultContent,
    logoUrl: body.logo,
    sso: body.sso,
    ai: body.ai,
    inviteLinks: body.inviteLinks,
  });
  return presentOrganization(ctx, await requireOrganizationRow(ctx, organizationId), actor.membership.role);
}

/**
 * Who may discover an organization through an email domain: its members, and
 * anyone asking about the domain of their own email address, so this cannot be
 * used to enumerate other organizations. Not yet a policy action (there is no
 * organization action for non-members); kept here, named, until policy has one.
 */
function mayDiscoverByDomain(p: Principal, domain: string, isMember: boolean): boolean {
  return isMember || p.email?.split('@')[1]?.toLowerCase() === domain;
}

/** The organization that declares and has verified an email domain, as far as the caller may discover it. */
export async function organizationsForEmailDomain(ctx: AppContext, p: Principal, domain: string) {
  const wanted = domain.toLowerCase();
  const rows = await listOrganizationRowsByEmailDomain(ctx.db, wanted, p.userId);
  const visible = rows.filter((r) => mayDiscoverByDomain(p, wanted, r.is_member));
  return {
    organizations: visible.map((r) => presentOrganization(ctx, r, r.is_member ? storedRole(r.role) : undefined)),
  };
}
