import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { membershipForDelete, requireFullMember, requireOrgMember, requireOrgRole } from '../../policy/guards';
import { teamPermissions } from '../../policy/permissions';
import { queryOne } from '../../store/db';
import { presentTeam, TEAM_COLUMNS, type TeamRow } from './present';

/**
 * One SELECT of teams of an organization as seen by a caller. `$1` is the
 * organization and `$2` the caller (TEAM_COLUMNS uses both); filters add
 * their own numbered parameters through `param()`.
 */
class TeamQuery {
  readonly params: unknown[];
  readonly where: string[] = ['t.organization_id = $1'];
  joins = '';
  extraColumns = '';

  constructor(organizationId: string, callerId: string) {
    this.params = [organizationId, callerId];
  }

  /** Adds a parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Case-insensitive "title contains"; strpos avoids escaping LIKE wildcards in user text. */
  titleContains(text: string | undefined): this {
    if (text) this.where.push(`strpos(lower(t.title), lower(${this.param(text)})) > 0`);
    return this;
  }

  get from(): string {
    return `FROM teams t ${this.joins} WHERE ${this.where.join(' AND ')}`;
  }

  /** One page, in creation order, with the total number of matches. */
  async page<R extends TeamRow>(ctx: AppContext, page: PageRequest): Promise<{ rows: R[]; total: number }> {
    const limit = this.param(page.limit);
    const offset = this.param(page.offset);
    const rows = await ctx.db.query<R & { total: string | number }>(
      `SELECT ${TEAM_COLUMNS}${this.extraColumns}, count(*) OVER () AS total ${this.from} ORDER BY t.created_at, t.id LIMIT ${limit} OFFSET ${offset}`,
      this.params,
    );
    if (rows[0]) return { rows, total: Number(rows[0].total) };
    // Past the last page the window count is not there; count separately.
    this.params.length -= 2;
    const counted = await queryOne<{ n: number }>(
      ctx.db,
      `SELECT count(*)::int AS n FROM (SELECT ${TEAM_COLUMNS} ${this.from}) x`,
      this.params,
    );
    return { rows: [], total: counted?.n ?? 0 };
  }
}

async function loadTeam(
  ctx: AppContext,
  organizationId: string,
  callerId: string,
  teamId: string,
): Promise<TeamRow | undefined> {
  return queryOne<TeamRow>(ctx.db, `SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $3`, [
    organizationId,
    callerId,
    teamId,
  ]);
}

export interface TeamFilters {
  owner?: string;
  title?: string;
}

/** listTeamsInOrganizationById: any full member; `owner` keeps the teams that member owns. */
export async function listTeams(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: TeamFilters,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireFullMember(m, 'list teams');
  const q = new TeamQuery(organizationId, p.userId).titleContains(filters.title);
  if (filters.owner)
    q.where.push(
      `EXISTS (SELECT 1 FROM team_members fo WHERE fo.team_id = t.id AND fo.user_id = ${q.param(filters.owner)} AND fo.is_owner)`,
    );
  const { rows, total } = await q.page(ctx, page);
  return listPage(
    rows.map((r) => presentTeam(r, m.role)),
    total,
    page,
  );
}

/**
 * createOrganizationTeam: organization admins only. Every listed user must be
 * an (enabled) member of the organization; the first one that is not is named
 * in the 400. The creator is not added implicitly, as on GitBook.
 */
export async function createTeam(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: { title: string; members?: string[] },
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireOrgRole(m, 'admin', 'create teams');
  const memberIds = [...new Set(body.members ?? [])];
  if (memberIds.length > 0) {
    const found = await ctx.db.query<{ user_id: string }>(
      'SELECT user_id FROM members WHERE organization_id = $1 AND user_id = ANY($2::text[]) AND NOT disabled',
      [organizationId, memberIds],
    );
    const known = new Set(found.map((r) => r.user_id));
    const unknown = memberIds.find((id) => !known.has(id));
    if (unknown) throw badRequest(`"${unknown}" is not a member of this organization`);
  }
  const id = newId();
  await ctx.db.transaction(async (tx) => {
    await tx.query('INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, $3, $4)', [
      id,
      organizationId,
      body.title.trim(),
      ctx.clock.now(),
    ]);
    if (memberIds.length > 0)
      await tx.query('INSERT INTO team_members (team_id, user_id) SELECT $1, unnest($2::text[])', [id, memberIds]);
  });
  const team = await loadTeam(ctx, organizationId, p.userId, id);
  if (!team) throw notFound('Team');
  return presentTeam(team, m.role);
}

/** getTeamInOrganizationById: 404 outside the organization, 403 for those the team permissions deny. */
export async function getTeam(ctx: AppContext, p: Principal, organizationId: string, teamId: string) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const team = await loadTeam(ctx, organizationId, p.userId, teamId);
  if (!team) throw notFound('Team');
  const perms = teamPermissions(m.role, team.caller_owns);
  if (!perms.view && !perms.admin) throw forbidden('Guests cannot view teams');
  return presentTeam(team, m.role);
}

/** updateTeamInOrganizationById: organization admins and the team's owners. */
export async function updateTeam(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  teamId: string,
  body: { title: string },
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const team = await loadTeam(ctx, organizationId, p.userId, teamId);
  if (!team) throw notFound('Team');
  if (!teamPermissions(m.role, team.caller_owns).admin)
    throw forbidden('Only organization admins and owners of this team can rename it');
  await ctx.db.query('UPDATE teams SET title = $3 WHERE id = $1 AND organization_id = $2', [
    teamId,
    organizationId,
    body.title.trim(),
  ]);
  const updated = await loadTeam(ctx, organizationId, p.userId, teamId);
  if (!updated) throw notFound('Team');
  return presentTeam(updated, m.role);
}

/**
 * removeTeamFromOrganizationById: organization admins. Idempotent (a missing
 * team is not an error). Its memberships go by cascade; its content grants are
 * keyed by a plain principal id, so they are removed here, in the same
 * transaction, or they would outlive the team.
 */
export async function deleteTeam(ctx: AppContext, p: Principal, organizationId: string, teamId: string): Promise<void> {
  const m = await membershipForDelete(ctx.db, organizationId, p.userId);
  if (!m) return;
  requireOrgRole(m, 'admin', 'delete teams');
  await ctx.db.transaction(async (tx) => {
    const deleted = await tx.query('DELETE FROM teams WHERE id = $1 AND organization_id = $2 RETURNING id', [
      teamId,
      organizationId,
    ]);
    if (deleted.length > 0)
      await tx.query("DELETE FROM content_permissions WHERE principal_type = 'team' AND principal_id = $1", [teamId]);
  });
}

/**
 * listTeamsForOrganizationMember: the teams a member belongs to, with whether
 * they own each. Members may list their own; admins anyone's.
 */
export async function listMemberTeams(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
  title: string | undefined,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  if (userId !== p.userId && m.role !== 'admin')
    throw forbidden("Only organization admins can list another member's teams");
  const target = await queryOne(ctx.db, 'SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
  ]);
  if (!target) throw notFound('Member');
  const q = new TeamQuery(organizationId, p.userId);
  q.joins = `JOIN team_members mt ON mt.team_id = t.id AND mt.user_id = ${q.param(userId)}`;
  q.extraColumns = ', mt.is_owner AS member_owns';
  q.titleContains(title);
  const { rows, total } = await q.page<TeamRow & { member_owns: boolean }>(ctx, page);
  const items = rows.map((r) => ({
    team: presentTeam(r, m.role),
    member: { role: r.member_owns ? ('owner' as const) : ('member' as const) },
  }));
  return listPage(items, total, page);
}
