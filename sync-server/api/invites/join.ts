import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { forbidden, notFound } from '../../http/errors';
import { isRole, ROLES, type RoleOrNone } from '../../policy/roles';
import { queryOne, type Queryable } from '../../store/db';
import { addOrRaiseMember, type MembershipChange } from '../members/membership';
import { findLink, type LinkRow } from './links';

interface EmailInviteRow {
  id: string;
  email: string;
  role: string | null;
  sso: boolean;
  accepted_at: Date | null;
}

const roleOf = (value: string | null): RoleOrNone => (isRole(value) ? value : null);

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
  const link = await findLink(ctx.db, organizationId, inviteId);
  if (link) await joinWithLink(ctx, p, link);
  else await joinWithEmailInvite(ctx, p, organizationId, inviteId);
  return {};
}

async function joinWithLink(ctx: AppContext, p: Principal, link: LinkRow): Promise<void> {
  const org = await queryOne<{ invite_links: boolean }>(
    ctx.db,
    'SELECT invite_links FROM organizations WHERE id = $1',
    [link.organization_id],
  );
  // Turning invite links off must also stop the links already handed out.
  if (!org?.invite_links) throw forbidden('Invite links are disabled in this organization');
  const now = ctx.clock.now();
  if (!link.resource_type || !link.resource_id) {
    refuseDisabled(await addOrRaiseMember(ctx.db, link.organization_id, p.userId, roleOf(link.role), { now }));
    return;
  }
  const resourceType = link.resource_type;
  const resourceId = link.resource_id;
  const level = roleOf(link.role);
  if (!(await contentExists(ctx.db, link.organization_id, resourceType, resourceId)) || !level)
    throw notFound('Invite');
  await ctx.db.transaction(async (tx) => {
    // Newcomers join as guests: they see only what the link (or later grants) give them.
    refuseDisabled(await addOrRaiseMember(tx, link.organization_id, p.userId, null, { now }));
    // Keep an existing higher grant: a link must never reduce access.
    await tx.query(
      `INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role) VALUES ($1, $2, 'user', $3, $4)
       ON CONFLICT (resource_type, resource_id, principal_type, principal_id) DO UPDATE SET role = EXCLUDED.role
       WHERE coalesce(array_position($5::text[], EXCLUDED.role), 0) > coalesce(array_position($5::text[], content_permissions.role), 0)`,
      [resourceType, resourceId, p.userId, level, [...ROLES]],
    );
  });
}

/** A live space (not in the bin) or a collection of this organization. */
async function contentExists(
  db: Queryable,
  organizationId: string,
  type: 'space' | 'collection',
  id: string,
): Promise<boolean> {
  const sql =
    type === 'space'
      ? 'SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL'
      : 'SELECT 1 FROM collections WHERE id = $1 AND organization_id = $2';
  return (await queryOne(db, sql, [id, organizationId])) !== undefined;
}

async function joinWithEmailInvite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<void> {
  const invite = await queryOne<EmailInviteRow>(
    ctx.db,
    'SELECT id, email, role, sso, accepted_at FROM email_invites WHERE id = $1 AND organization_id = $2',
    [inviteId, organizationId],
  );
  if (!invite) throw notFound('Invite');
  if (!p.email || p.email.toLowerCase() !== invite.email.toLowerCase())
    throw forbidden('This invite was sent to another email address');
  if (invite.accepted_at) {
    // Accepting twice is harmless; an old invite cannot bring back someone who was removed since.
    const member = await queryOne(ctx.db, 'SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2', [
      organizationId,
      p.userId,
    ]);
    if (!member) throw notFound('Invite');
    return;
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    refuseDisabled(await addOrRaiseMember(tx, organizationId, p.userId, roleOf(invite.role), { now, sso: invite.sso }));
    await tx.query('UPDATE email_invites SET accepted_at = $2 WHERE id = $1', [invite.id, now]);
  });
}
