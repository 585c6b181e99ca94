import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import type { Actor } from '../../policy';
import { loadMemberRow } from '../../store/members';
import {
  deleteTeamMembers,
  listTeamMemberIds,
  loadTeamRow,
  resolveMemberRefs,
  upsertTeamMembers,
  type TeamRow,
} from '../../store/teams';
import { actorForDelete, authorize, requireOrgActor } from '../authorize';
import { presentMember } from '../members/present';
import { viewerOf } from '../system/present-user';
import { teamResource } from './present';

/**
 * Team membership after creation (GitBook's team-members operations). Reading
 * follows policy's `view` on the team, changing it `admin` (organization
 * admins and the team's owners), as renaming the team does.
 */

type TeamMemberRole = 'owner' | 'member';

async function requireTeam(ctx: AppContext, actor: Actor, organizationId: string, teamId: string): Promise<TeamRow> {
  const team = await loadTeamRow(ctx.db, organizationId, actor.userId, teamId);
  if (!team) throw notFound('Team');
  return team;
}

/** The actor allowed `action` on the team, and the team. */
async function teamFor(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  action: 'view' | 'admin',
) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const team = await requireTeam(ctx, actor, organizationId, teamId);
  authorize(actor, action, teamResource(team));
  return { actor, team };
}

/** listTeamMembersInOrganizationById: each member as an OrganizationMember with their team role. */
export async function listTeamMembers(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  page: PageRequest,
) {
  const { actor } = await teamFor(ctx, p, organizationId, teamId, 'view');
  const { rows, total } = await listTeamMemberIds(ctx.db, organizationId, teamId, page);
  const viewer = viewerOf(actor);
  const items = [];
  for (const r of rows) {
    const member = await loadMemberRow(ctx.db, organizationId, r.user_id);
    // Removed from the organization between the two reads: leave it out rather than fail the page.
    if (!member) continue;
    items.push({
      organization: presentMember(ctx, viewer, member),
      team: { role: r.is_owner ? ('owner' as const) : ('member' as const) },
      permissions: { view: true },
    });
  }
  return listPage(items, total, page);
}

/**
 * updateMembersInOrganizationTeam. `add` must name enabled members of the
 * organization (by id or email; the first unknown one is named in the 400);
 * `remove` ignores users not in the team; `memberships` sets roles (adding
 * the user when needed). A user both added and removed ends up removed.
 */
export async function updateTeamMembers(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  body: { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamMemberRole }> },
): Promise<void> {
  await teamFor(ctx, p, organizationId, teamId, 'admin');
  const add = [...new Set([...(body.add ?? []), ...Object.keys(body.memberships ?? {})])];
  const known = await resolveMemberRefs(ctx.db, organizationId, add, true);
  const unknown = add.find((ref) => !known.has(ref));
  if (unknown) throw badRequest(`"${unknown}" is not a member of this organization`);
  const removed = await resolveMemberRefs(ctx.db, organizationId, [...new Set(body.remove ?? [])], false);
  const removedIds = new Set(removed.values());
  const owners: string[] = [];
  const members: string[] = [];
  for (const ref of add) {
    const userId = known.get(ref)!;
    if (removedIds.has(userId)) continue;
    (body.memberships?.[ref]?.role === 'owner' ? owners : members).push(userId);
  }
  await ctx.db.transaction(async (tx) => {
    await upsertTeamMembers(tx, teamId, members, false);
    await upsertTeamMembers(tx, teamId, owners, true);
    await deleteTeamMembers(tx, teamId, [...removedIds]);
  });
}

/** addMemberToOrganizationTeamById: adds (or changes the role of) one member; 404 when not in the organization. */
export async function addTeamMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  userId: string,
  role: TeamMemberRole | undefined,
): Promise<void> {
  await teamFor(ctx, p, organizationId, teamId, 'admin');
  const known = await resolveMemberRefs(ctx.db, organizationId, [userId], true);
  if (!known.has(userId)) throw notFound('Member');
  await upsertTeamMembers(ctx.db, teamId, [userId], role === 'owner');
}

/**
 * deleteMemberFromOrganizationTeamById: whether a membership was removed
 * (205) or there was none (204). Outside the organization, or for a team
 * that does not exist, it is a quiet 204, as for every DELETE.
 */
export async function removeTeamMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return false;
  const team = await loadTeamRow(ctx.db, organizationId, actor.userId, teamId);
  if (!team) return false;
  authorize(actor, 'admin', teamResource(team));
  return (await deleteTeamMembers(ctx.db, teamId, [userId])) > 0;
}
