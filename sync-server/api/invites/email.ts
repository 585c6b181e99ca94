import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { requireOrgMember, requireOrgRole } from '../../policy/guards';
import { isRole, type RoleOrNone } from '../../policy/roles';
import { queryOne } from '../../store/db';

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
 * Invites people by email (admins only). Addresses of existing users who are
 * not members yet make them members right away; other addresses get a pending
 * invite (a new id each time, so re-inviting voids the previous link) and an
 * email with the join link. Existing members are left as they are.
 */
export async function inviteUsers(ctx: AppContext, p: Principal, organizationId: string, body: InviteUsersRequest) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireOrgRole(m, 'admin', 'invite members');
  const org = await queryOne<{ title: string; default_role: string | null }>(
    ctx.db,
    'SELECT title, default_role FROM organizations WHERE id = $1',
    [organizationId],
  );
  if (!org) throw notFound('Organization');
  const defaultRole: RoleOrNone =
    body.role !== undefined ? body.role : isRole(org.default_role) ? org.default_role : 'read';
  const wanted = normalize(body, defaultRole);
  const sso = body.sso ?? false;
  const now = ctx.clock.now();

  const { added, pending } = await ctx.db.transaction(async (tx) => {
    const users = await tx.query<{ id: string; email: string }>(
      'SELECT id, lower(email) AS email FROM users WHERE lower(email) = ANY($1::text[])',
      [[...wanted.keys()]],
    );
    const userByEmail = new Map(users.map((u) => [u.email, u.id]));
    const added: string[] = [];
    const pending: { id: string; email: string }[] = [];
    for (const [email, role] of wanted) {
      const userId = userByEmail.get(email);
      if (userId) {
        const inserted = await tx.query<{ user_id: string }>(
          `INSERT INTO members (organization_id, user_id, role, sso, joined_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING user_id`,
          [organizationId, userId, role, sso, now],
        );
        if (inserted.length > 0) added.push(userId);
        // An earlier pending invite for this address is fulfilled now.
        await tx.query(
          'UPDATE email_invites SET accepted_at = $3 WHERE organization_id = $1 AND email = $2 AND accepted_at IS NULL',
          [organizationId, email, now],
        );
        continue;
      }
      const rows = await tx.query<{ id: string }>(
        `INSERT INTO email_invites (id, organization_id, email, role, sso, invited_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (organization_id, email) DO UPDATE
           SET id = EXCLUDED.id, role = EXCLUDED.role, sso = EXCLUDED.sso, invited_by = EXCLUDED.invited_by,
               created_at = EXCLUDED.created_at, accepted_at = NULL
         RETURNING id`,
        [newId(), organizationId, email, role, sso, p.userId, now],
      );
      pending.push({ id: rows[0]!.id, email });
    }
    return { added, pending };
  });

  // Mail goes out after the commit: an invite that is not stored must not be sent.
  const failed: string[] = [];
  for (const invite of pending) {
    try {
      await ctx.mailer.sendInvite({
        to: invite.email,
        organizationTitle: org.title,
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
  return { users: added, invited: pending.length };
}
