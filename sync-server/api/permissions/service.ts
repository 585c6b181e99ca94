import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import type { Role as RoleName } from '../../policy/roles';
import { activeMemberIds } from '../../store/members';
import { listTeamRowsGrantedOn, teamIdsInOrganization } from '../../store/teams';
import {
  deleteGrant,
  listUserGrantRows,
  upsertGrants,
  type GrantPrincipal,
  type GrantTarget,
} from '../../store/content-grants';
import { presentUser, viewerOf } from '../system/present-user';
import { presentTeam } from '../teams/present';
import { requireTarget, targetForDelete } from './target';

/**
 * Direct access of members and teams to one space or collection (GitBook's
 * permissions operations). Whoever sees the content may see who has access;
 * changing it is policy's `manage-permissions` (admins of the content). A role
 * of `null` (GitBook's "guest") withdraws the grant.
 */

/** listUserPermissionsInSpace / …InCollection. */
export async function listUserPermissions(ctx: AppContext, p: Principal, target: GrantTarget, page: PageRequest) {
  const { actor } = await requireTarget(ctx, p, target, 'view');
  const { rows, total } = await listUserGrantRows(ctx.db, target, page);
  const viewer = viewerOf(actor);
  return listPage(
    rows.map((r) => ({ permission: r.role as RoleName, user: presentUser(ctx, viewer, r) })),
    total,
    page,
  );
}

/** listTeamPermissionsInSpace / …InCollection. */
export async function listTeamPermissions(ctx: AppContext, p: Principal, target: GrantTarget, page: PageRequest) {
  const { actor, organizationId } = await requireTarget(ctx, p, target, 'view');
  const { rows, total } = await listTeamRowsGrantedOn(ctx.db, organizationId, p.userId, target, page);
  return listPage(
    rows.map((r) => ({ permission: r.granted_role as RoleName, team: presentTeam(r, actor.membership.role) })),
    total,
    page,
  );
}

/** Checks every id names a member (users: enabled members) or a team of the organization; 404 names the first that does not. */
async function requireInOrganization(
  ctx: AppContext,
  organizationId: string,
  principalType: GrantPrincipal,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const known =
    principalType === 'user'
      ? await activeMemberIds(ctx.db, organizationId, ids)
      : await teamIdsInOrganization(ctx.db, organizationId, ids);
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw notFound(principalType === 'user' ? 'Member' : 'Team');
}

/** inviteToSpace / inviteToCollection: grants `role` to the listed members and teams (all or none). */
export async function invite(
  ctx: AppContext,
  p: Principal,
  target: GrantTarget,
  body: { role: RoleName | null; users?: string[]; teams?: string[] },
): Promise<void> {
  const users = [...new Set(body.users ?? [])];
  const teams = [...new Set(body.teams ?? [])];
  if (users.length === 0 && teams.length === 0) throw badRequest('Name at least one user or team');
  const { organizationId } = await requireTarget(ctx, p, target, 'manage-permissions');
  await requireInOrganization(ctx, organizationId, 'user', users);
  await requireInOrganization(ctx, organizationId, 'team', teams);
  await ctx.db.transaction(async (tx) => {
    if (body.role === null) {
      for (const id of users) await deleteGrant(tx, target, 'user', id);
      for (const id of teams) await deleteGrant(tx, target, 'team', id);
      return;
    }
    await upsertGrants(tx, target, 'user', users, body.role);
    await upsertGrants(tx, target, 'team', teams, body.role);
  });
}

/** update{User,Team}PermissionIn{Space,Collection}: sets one principal's role (null withdraws it). */
export async function setPermission(
  ctx: AppContext,
  p: Principal,
  target: GrantTarget,
  principalType: GrantPrincipal,
  principalId: string,
  role: RoleName | null,
): Promise<void> {
  const { organizationId } = await requireTarget(ctx, p, target, 'manage-permissions');
  await requireInOrganization(ctx, organizationId, principalType, [principalId]);
  if (role === null) await deleteGrant(ctx.db, target, principalType, principalId);
  else await upsertGrants(ctx.db, target, principalType, [principalId], role);
}

/** remove{User,Team}From{Space,Collection}: whether a grant was withdrawn (205) or there was none (204). */
export async function removePermission(
  ctx: AppContext,
  p: Principal,
  target: GrantTarget,
  principalType: GrantPrincipal,
  principalId: string,
): Promise<boolean> {
  const allowed = await targetForDelete(ctx, p, target);
  if (!allowed) return false;
  return deleteGrant(ctx.db, target, principalType, principalId);
}
