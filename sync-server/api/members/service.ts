import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { emailDomain } from '../../identity/accounts';
import { signMemberVisitorClaims } from '../../identity/visitor-claims';
import { badRequest, notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import type { Role, RoleOrNone } from '../../policy/roles';
import { cachedRead } from '../../store/read-cache';
import {
  deleteMemberWithAccess,
  listMemberRows,
  loadMemberRow,
  markSsoMember,
  setMemberDisabled,
  setMemberRole,
  touchMemberLastSeen,
} from '../../store/members';
import { actorForDelete, authorize, organization, requireOrgActor, requireOrgPermission } from '../authorize';
import { verifiedDomainOwner } from '../../store/domain-claims';
import { recordMemberRemoval } from '../../store/member-removals';
import { assertKeepsAnAdmin } from './membership';
import { presentMember } from './present';
import { viewerOf, type UserViewer } from '../system/present-user';

/** The list filters of listMembersInOrganizationById. */
export interface MemberFilters {
  order?: 'asc' | 'desc';
  role?: Role | 'guest';
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
}

async function memberOrNotFound(ctx: AppContext, viewer: UserViewer, organizationId: string, userId: string) {
  const row = await loadMemberRow(ctx.db, organizationId, userId);
  if (!row) throw notFound('Member');
  return presentMember(ctx, viewer, row);
}

/** One page of members, presented (one query, plus a count only when the page is past the end). */
async function membersPage(
  ctx: AppContext,
  viewer: UserViewer,
  organizationId: string,
  filters: MemberFilters,
  page: PageRequest,
) {
  const { rows, total } = await listMemberRows(
    ctx.db,
    organizationId,
    { role: filters.role, search: filters.search, sort: filters.sort ?? 'joinedAt', order: filters.order ?? 'desc' },
    page,
  );
  return listPage(
    rows.map((r) => presentMember(ctx, viewer, r)),
    total,
    page,
  );
}

/**
 * Members of an organization as UTF-8 JSON bytes, read-cached per organization,
 * filters and page (Member objects carry nothing caller-specific; the
 * caller's right to list is asked of policy on every call). Any write drops
 * the cached pages.
 */
export async function listMembersJson(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: MemberFilters,
  page: PageRequest,
): Promise<Buffer> {
  const viewer = viewerOf(await requireOrgPermission(ctx.db, p, organizationId, 'list-members'));
  // Shared by every caller who sees members' details; anyone else's page shows their own email only.
  const audience = viewer.seesMemberDetails ? 'members' : `self:${viewer.userId}`;
  const key = `members-json:${organizationId}:${audience}:${JSON.stringify([filters.order, filters.role, filters.search, filters.sort, page.offset, page.limit])}`;
  return cachedRead(ctx.db, key, async () =>
    Buffer.from(JSON.stringify(await membersPage(ctx, viewer, organizationId, filters, page))),
  );
}

/** One member. Anyone in the organization sees themself; seeing others is policy's `view-members`. */
export async function getMember(ctx: AppContext, p: Principal, organizationId: string, userId: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  if (userId !== p.userId) authorize(actor, 'view-members', organization(organizationId));
  return memberOrNotFound(ctx, viewerOf(actor), organizationId, userId);
}

/**
 * Changes a member's role (null = guest) and, a Folio extension, disables or
 * enables the membership. The last active admin can be neither demoted nor
 * disabled, and nobody disables themself (they would lock themself out).
 */
export async function updateMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
  body: { role?: RoleOrNone; disabled?: boolean },
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'change-member-roles');
  const { role, disabled } = body;
  if (disabled === true && userId === p.userId)
    throw badRequest('You cannot disable your own membership: ask another admin, or leave the organization');
  if (role !== undefined || disabled !== undefined) {
    await ctx.db.transaction(async (tx) => {
      if ((role !== undefined && role !== 'admin') || disabled === true)
        await assertKeepsAnAdmin(tx, organizationId, userId, disabled ? 'disable this member' : 'change the role');
      if (role !== undefined && !(await setMemberRole(tx, organizationId, userId, role))) throw notFound('Member');
      if (disabled !== undefined && !(await setMemberDisabled(tx, organizationId, userId, disabled)))
        throw notFound('Member');
    });
  }
  return memberOrNotFound(ctx, viewerOf(actor), organizationId, userId);
}

/**
 * Removes a member, or lets a member leave (removing oneself needs no
 * permission; removing others is policy's `remove-members`). Their team
 * memberships and direct grants on this organization's content go with them.
 * Removing a non-member is a no-op (204).
 */
export async function removeMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
): Promise<void> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return;
  if (userId !== p.userId) authorize(actor, 'remove-members', organization(organizationId));
  await ctx.db.transaction(async (tx) => {
    await assertKeepsAnAdmin(tx, organizationId, userId, 'remove this member');
    // Remembered whether an admin removed them or they left: signing in again must not bring them back
    // through their email domain (only an invite they accept does).
    if (await deleteMemberWithAccess(tx, organizationId, userId))
      await recordMemberRemoval(tx, organizationId, userId, ctx.clock.now());
  });
}

/**
 * Records that the caller is active in the organization now (any member,
 * guests included) and hands them visitor claims: a JWT the organization's
 * visitor-auth sites accept (identity/visitor-claims.ts). The spec names the
 * field `serviceVisitorClaims`; GitBook's client reads `gitbookVisitorClaims`.
 */
export async function ping(ctx: AppContext, p: Principal, organizationId: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const now = ctx.clock.now();
  await touchMemberLastSeen(ctx.db, organizationId, p.userId, now);
  const claims = await signMemberVisitorClaims(
    ctx.db,
    organizationId,
    { userId: p.userId, email: p.email, displayName: p.displayName, role: actor.membership.role ?? null },
    now,
  );
  return { serviceVisitorClaims: claims, gitbookVisitorClaims: claims };
}

/** Marks a member as an SSO member (they may sign in through the organization's SSO). */
export async function setSsoMember(ctx: AppContext, p: Principal, organizationId: string, userId: string) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'set-sso-members');
  const member = await loadMemberRow(ctx.db, organizationId, userId);
  if (!member) throw notFound('Member');
  // An SSO member of an organization with `sso` on may sign in no other way: only the owner of their domain may ask that.
  const domain = emailDomain(member.email ?? '');
  if (!domain || (await verifiedDomainOwner(ctx.db, domain)) !== organizationId)
    throw badRequest(
      `Only members whose email domain this organization has verified can be SSO members (${domain || 'no email address'} is not verified here)`,
    );
  if (!(await markSsoMember(ctx.db, organizationId, userId))) throw notFound('Member');
  return memberOrNotFound(ctx, viewerOf(actor), organizationId, userId);
}
