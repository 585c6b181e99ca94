import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { isRole, type RoleOrNone } from '../../policy/roles';
import type { Queryable } from '../../store/db';
import { upsertEmailInvite, userIdsByEmail } from '../../store/invites';
import { memberExists } from '../../store/members';
import { loadOrganizationRow } from '../../store/organizations';
import { requireOrgPermission } from '../authorize';

/** The body of inviteUsersToOrganization. */
export interface InviteUsersRequest {
  emails: (string | { email: string; role: RoleOrNone })[];
  role?: RoleOrNone;
  sso?: boolean;
}

/** The join page of an email invite, as sent in the email. */
export function joinUrl(ctx: AppContext, organizationId: string, inviteId: string): string {
  return ctx.urls.app(`/join/${organizationId}/${inviteId}`);
}

/** Lower-cased, de-duplicated (first mention wins) addresses with their roles. */
function normalize(body: InviteUsersRequest, defaultRole: RoleOrNone): Map<string, RoleOrNone> {
  const out = new Map<string, RoleOrNone>();
  for (const entry of body.emails) {
    const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
    if (!out.has(email)) out.set(email, typeof entry === 'string' ? defaultRole : entry.role);
  }
  return out;
}

/**
 * Invites people by email (policy's `invite-members`). Every address that is
 * not a member's gets a pending invite (a new id each time, so re-inviting
 * voids the previous link) and an email with the join link, whether or not it
 * already has an account: nobody becomes a member of an organization without
 * accepting (an instant membership would let any organization put its name,
 * its content and its `sso` flag on anyone's account). Existing members are
 * left as they are. `users` lists who was added at once: nobody, since GitBook
 * clients read it as such.
 */
export async function inviteUsers(ctx: AppContext, p: Principal, organizationId: string, body: InviteUsersRequest) {
  await requireOrgPermission(ctx.db, p, organizationId, 'invite-members');
  const org = await loadOrganizationRow(ctx.db, organizationId);
  if (!org) throw notFound('Organization');
  const defaultRole: RoleOrNone =
    body.role !== undefined ? body.role : isRole(org.default_role) ? org.default_role : 'read';
  const wanted = normalize(body, defaultRole);
  const invitation = { organizationId, sso: body.sso ?? false, invitedBy: p.userId, now: ctx.clock.now() };
  const { added, pending } = await ctx.db.transaction((tx) => recordInvites(tx, wanted, invitation));
  await sendInviteEmails(ctx, organizationId, org.title, pending);
  return { users: added, invited: pending.length };
}

/**
 * Stores the invites of one call: every address that is not an active
 * member's gets a pending invite (accepted with joinOrganizationWithInvite).
 * Call inside a transaction.
 */
async function recordInvites(
  tx: Queryable,
  wanted: Map<string, RoleOrNone>,
  invitation: { organizationId: string; sso: boolean; invitedBy: string; now: Date },
): Promise<{ added: string[]; pending: { id: string; email: string }[] }> {
  const { organizationId, sso, invitedBy, now } = invitation;
  const userByEmail = await userIdsByEmail(tx, [...wanted.keys()]);
  const pending: { id: string; email: string }[] = [];
  for (const [email, role] of wanted) {
    const userId = userByEmail.get(email);
    if (userId && (await memberExists(tx, organizationId, userId))) continue;
    const id = await upsertEmailInvite(tx, {
      id: newId(),
      organizationId,
      email,
      role,
      sso,
      invitedBy,
      createdAt: now,
    });
    pending.push({ id, email });
  }
  return { added: [], pending };
}

/**
 * Mails the join links, after the commit: an invite that is not stored must
 * not be sent. A failure is a 502 naming the addresses (the invites stay, so
 * inviting again re-sends them).
 */
async function sendInviteEmails(
  ctx: AppContext,
  organizationId: string,
  organizationTitle: string,
  pending: { id: string; email: string }[],
): Promise<void> {
  const failed: string[] = [];
  for (const invite of pending) {
    try {
      await ctx.mailer.sendInvite({
        to: invite.email,
        organizationTitle,
        joinUrl: joinUrl(ctx, organizationId, invite.id),
      });
    } catch {
      failed.push(invite.email);
    }
  }
  if (failed.length > 0) {
    throw new ApiError(
      502,
      `The invites were recorded, but the email to ${failed.join(', ')} could not be sent; check the SMTP settings and invite again`,
    );
  }
}
