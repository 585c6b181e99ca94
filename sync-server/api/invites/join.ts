import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { forbidden, notFound } from '../../http/errors';
import { ROLES } from '../../policy/roles';
import {
  findEmailInviteRow,
  findLinkRow,
  grantAtLeast,
  linkTargetExists,
  markEmailInviteAccepted,
  type LinkRow,
} from '../../store/invites';
import { clearMemberRemoval } from '../../store/member-removals';
import { memberExists } from '../../store/members';
import { loadOrganizationRow } from '../../store/organizations';
import { addOrRaiseMember, storedRole, type MembershipChange } from '../members/membership';

function refuseDisabled(change: MembershipChange): void {
  if (change === 'disabled')
    throw forbidden('Your membership in this organization is disabled; ask an admin to enable it');
}

/**
 * The caller joins the organization with an invite id: either an invite link
 * (to the organization, or to a space/collection) or an email invite sent to
 * the caller's own address. Joining never lowers a role the caller already has.
 */
export async function joinWithInvite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<Record<string, never>> {
  const link = await findLinkRow(ctx.db, organizationId, inviteId);
  if (link) await joinWithLink(ctx, p, link);
  else await joinWithEmailInvite(ctx, p, organizationId, inviteId);
  return {};
}

async function joinWithLink(ctx: AppContext, p: Principal, link: LinkRow): Promise<void> {
  const org = await loadOrganizationRow(ctx.db, link.organization_id);
  // Turning invite links off must also stop the links already handed out.
  if (!org?.invite_links) throw forbidden('Invite links are disabled in this organization');
  const now = ctx.clock.now();
  if (!link.resource_type || !link.resource_id) {
    await ctx.db.transaction(async (tx) => {
      refuseDisabled(await addOrRaiseMember(tx, link.organization_id, p.userId, storedRole(link.role), { now }));
      // An invite accepted is the way back in after a removal.
      await clearMemberRemoval(tx, link.organization_id, p.userId);
    });
    return;
  }
  const resourceType = link.resource_type;
  const resourceId = link.resource_id;
  const level = storedRole(link.role);
  if (!(await linkTargetExists(ctx.db, link.organization_id, resourceType, resourceId)) || !level)
    throw notFound('Invite');
  await ctx.db.transaction(async (tx) => {
    // Newcomers join as guests: they see only what the link (or later grants) give them.
    refuseDisabled(await addOrRaiseMember(tx, link.organization_id, p.userId, null, { now }));
    await clearMemberRemoval(tx, link.organization_id, p.userId);
    await grantAtLeast(tx, { resourceType, resourceId, userId: p.userId, role: level }, ROLES);
  });
}

async function joinWithEmailInvite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<void> {
  const invite = await findEmailInviteRow(ctx.db, organizationId, inviteId);
  if (!invite) throw notFound('Invite');
  if (!p.email || p.email.toLowerCase() !== invite.email.toLowerCase())
    throw forbidden('This invite was sent to another email address');
  if (invite.accepted_at) {
    // Accepting twice is harmless; an old invite cannot bring back someone who was removed since.
    if (!(await memberExists(ctx.db, organizationId, p.userId))) throw notFound('Invite');
    return;
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    refuseDisabled(
      await addOrRaiseMember(tx, organizationId, p.userId, storedRole(invite.role), { now, sso: invite.sso }),
    );
    await markEmailInviteAccepted(tx, invite.id, now);
    await clearMemberRemoval(tx, organizationId, p.userId);
  });
}
