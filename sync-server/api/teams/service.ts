import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import type { Actor } from '../../policy';
import { activeMemberIds, memberExists } from '../../store/members';
import {
  deleteTeamWithGrants,
  insertTeamWithMembers,
  listTeamRows,
  listTeamRowsOfMember,
  loadTeamRow,
  renameTeamRow,
  type TeamRow,
} from '../../store/teams';
import { actorForDelete, authorize, organization, requireOrgActor, requireOrgPermission } from '../authorize';
import { presentTeam, teamResource } from './present';

export interface TeamFilters {
  owner?: string;
  title?: string;
}

/** The team as the actor sees it; 404 when the organization has no such team. */
async function requireTeam(ctx: AppContext, actor: Actor, organizationId: string, teamId: string): Promise<TeamRow> {
  const team = await loadTeamRow(ctx.db, organizationId, actor.userId, teamId);
  if (!team) throw notFound('Team');
  return team;
}

/** listTeamsInOrganizationById: policy's `list-teams`; `owner` keeps the teams that member owns. */
export async function listTeams(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: TeamFilters,
  page: PageRequest,
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'list-teams');
  const { rows, total } = await listTeamRows(ctx.db, organizationId, p.userId, filters, page);
  return listPage(
    rows.map((r) => presentTeam(r, actor.membership.role)),
    total,
    page,
  );
}

/**
 * createOrganizationTeam (policy's `create-teams`). Every listed user must be
 * an (enabled) member of the organization; the first one that is not is named
 * in the 400. The creator is not added implicitly, as on GitBook.
 */
export async function createTeam(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: { title: string; members?: string[] },
) {
  const actor = await requireOrgPermission(ctx.db, p, organizationId, 'create-teams');
  const memberIds = [...new Set(body.members ?? [])];
  if (memberIds.length > 0) {
    const known = await activeMemberIds(ctx.db, organizationId, memberIds);
    const unknown = memberIds.find((id) => !known.has(id));
    if (unknown) throw badRequest(`"${unknown}" is not a member of this organization`);
  }
  const id = newId();
  await ctx.db.transaction((tx) =>
    insertTeamWithMembers(tx, { id, organizationId, title: body.title.trim(), createdAt: ctx.clock.now(), memberIds }),
  );
  return presentTeam(await requireTeam(ctx, actor, organizationId, id), actor.membership.role);
}

/** getTeamInOrganizationById: 404 outside the organization or for an unknown team, 403 when policy refuses `view`. */
export async function getTeam(ctx: AppContext, p: Principal, organizationId: string, teamId: string) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const team = await requireTeam(ctx, actor, organizationId, teamId);
  authorize(actor, 'view', teamResource(team));
  return presentTeam(team, actor.membership.role);
}

/** updateTeamInOrganizationById: policy's `admin` on the team (organization admins and the team's owners). */
export async function updateTeam(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  body: { title: string },
) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  authorize(actor, 'admin', teamResource(await requireTeam(ctx, actor, organizationId, teamId)));
  await renameTeamRow(ctx.db, organizationId, teamId, body.title.trim());
  return presentTeam(await requireTeam(ctx, actor, organizationId, teamId), actor.membership.role);
}

/**
 * removeTeamFromOrganizationById (policy's `delete-teams`). Idempotent: a
 * missing team, or an organization the caller is not in, is a quiet 204.
 */
export async function deleteTeam(ctx: AppContext, p: Principal, organizationId: string, teamId: string): Promise<void> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return;
  authorize(actor, 'delete-teams', organization(organizationId));
  await ctx.db.transaction((tx) => deleteTeamWithGrants(tx, organizationId, teamId));
}

/**
 * listTeamsForOrganizationMember: the teams a member belongs to, with whether
 * they own each. Members may list their own; another member's teams are for
 * organization admins.
 */
export async function listMemberTeams(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
  title: string | undefined,
  page: PageRequest,
) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  if (userId !== p.userId) authorize(actor, 'list-member-teams', organization(organizationId));
  if (!(await memberExists(ctx.db, organizationId, userId))) throw notFound('Member');
  const { rows, total } = await listTeamRowsOfMember(ctx.db, organizationId, p.userId, userId, title, page);
  const items = rows.map((r) => ({
    team: presentTeam(r, actor.membership.role),
    member: { role: r.member_owns ? ('owner' as const) : ('member' as const) },
  }));
  return listPage(items, total, page);
}
