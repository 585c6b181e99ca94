import { queryOne, type Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/** A team row with its counts and the caller's ownership, as TEAM_COLUMNS selects it. */
export interface TeamRow {
  id: string;
  organization_id: string;
  title: string;
  created_at: Date;
  member_count: number;
  space_count: number;
  caller_owns: boolean;
}

/**
 * The columns of a team row. `$1` must be the organization id and `$2` the
 * caller's user id. The counts are correlated subqueries on indexed columns,
 * so a page of teams costs one statement whatever its size.
 * - members: team members who still belong to the organization;
 * - spaces: live (not trashed) spaces of the organization granted to the team.
 */
const TEAM_COLUMNS = `t.id, t.organization_id, t.title, t.created_at,
  (SELECT count(*)::int FROM team_members tm
     JOIN members m ON m.organization_id = t.organization_id AND m.user_id = tm.user_id
    WHERE tm.team_id = t.id) AS member_count,
  (SELECT count(DISTINCT cp.resource_id)::int FROM content_permissions cp
     JOIN spaces s ON s.id = cp.resource_id AND s.organization_id = t.organization_id AND s.deleted_at IS NULL
    WHERE cp.principal_type = 'team' AND cp.principal_id = t.id AND cp.resource_type = 'space') AS space_count,
  EXISTS (SELECT 1 FROM team_members ow WHERE ow.team_id = t.id AND ow.user_id = $2 AND ow.is_owner) AS caller_owns`;

type Page = { limit: number; offset: number };

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

  /** One page, in creation order, with the total number of matches. */
  page<R extends TeamRow>(db: Queryable, page: Page): Promise<CountedPage<R>> {
    return selectCountedPage<R>(
      db,
      {
        columns: TEAM_COLUMNS + this.extraColumns,
        from: `FROM teams t ${this.joins} WHERE ${this.where.join(' AND ')}`,
        order: 't.created_at, t.id',
        params: this.params,
      },
      page,
    );
  }
}

/** One team of an organization as `callerId` sees it, or undefined. */
export function loadTeamRow(
  db: Queryable,
  organizationId: string,
  callerId: string,
  teamId: string,
): Promise<TeamRow | undefined> {
  return queryOne<TeamRow>(db, `SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $3`, [
    organizationId,
    callerId,
    teamId,
  ]);
}

/** One page of an organization's teams; `owner` keeps those that user owns, `title` those whose title contains it. */
export function listTeamRows(
  db: Queryable,
  organizationId: string,
  callerId: string,
  filters: { owner?: string; title?: string },
  page: Page,
): Promise<CountedPage<TeamRow>> {
  const q = new TeamQuery(organizationId, callerId).titleContains(filters.title);
  if (filters.owner)
    q.where.push(
      `EXISTS (SELECT 1 FROM team_members fo WHERE fo.team_id = t.id AND fo.user_id = ${q.param(filters.owner)} AND fo.is_owner)`,
    );
  return q.page(db, page);
}

/** One page of the teams `memberId` belongs to, with whether they own each (`member_owns`). */
export function listTeamRowsOfMember(
  db: Queryable,
  organizationId: string,
  callerId: string,
  memberId: string,
  title: string | undefined,
  page: Page,
): Promise<CountedPage<TeamRow & { member_owns: boolean }>> {
  const q = new TeamQuery(organizationId, callerId);
  q.joins = `JOIN team_members mt ON mt.team_id = t.id AND mt.user_id = ${q.param(memberId)}`;
  q.extraColumns = ', mt.is_owner AS member_owns';
  q.titleContains(title);
  return q.page(db, page);
}

/** Inserts a team and its (non-owner) members. Call inside a transaction. */
export async function insertTeamWithMembers(
  tx: Queryable,
  team: { id: string; organizationId: string; title: string; createdAt: Date; memberIds: string[] },
): Promise<void> {
  await tx.query('INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, $3, $4)', [
    team.id,
    team.organizationId,
    team.title,
    team.createdAt,
  ]);
  if (team.memberIds.length > 0)
    await tx.query('INSERT INTO team_members (team_id, user_id) SELECT $1, unnest($2::text[])', [
      team.id,
      team.memberIds,
    ]);
}

/** Renames a team of the organization. */
export async function renameTeamRow(
  db: Queryable,
  organizationId: string,
  teamId: string,
  title: string,
): Promise<void> {
  await db.query('UPDATE teams SET title = $3 WHERE id = $1 AND organization_id = $2', [teamId, organizationId, title]);
}

/**
 * Deletes a team of the organization. Its memberships go by cascade; its
 * content grants are keyed by a plain principal id, so they are removed here
 * too, or they would outlive the team. Call inside a transaction.
 */
export async function deleteTeamWithGrants(tx: Queryable, organizationId: string, teamId: string): Promise<void> {
  const deleted = await tx.query('DELETE FROM teams WHERE id = $1 AND organization_id = $2 RETURNING id', [
    teamId,
    organizationId,
  ]);
  if (deleted.length > 0)
    await tx.query("DELETE FROM content_permissions WHERE principal_type = 'team' AND principal_id = $1", [teamId]);
}

/**
 * One page of the user ids in a team who still belong to its organization
 * (as `member_count` counts them), with whether each owns the team. Writes go
 * through the caching database, so adding or removing a member invalidates
 * the read cache and the socket access sweep re-checks team-granted access.
 */
export function listTeamMemberIds(
  db: Queryable,
  organizationId: string,
  teamId: string,
  page: Page,
): Promise<CountedPage<{ user_id: string; is_owner: boolean }>> {
  return selectCountedPage(
    db,
    {
      columns: 'tm.user_id, tm.is_owner',
      from: `FROM team_members tm JOIN members m ON m.organization_id = $1 AND m.user_id = tm.user_id
        JOIN users u ON u.id = tm.user_id WHERE tm.team_id = $2`,
      order: 'lower(u.display_name), tm.user_id',
      params: [organizationId, teamId],
    },
    page,
  );
}

/**
 * The organization's members named by user id or by email (case-insensitive),
 * as a map from what was asked to the user id; `enabledOnly` skips disabled members.
 */
export async function resolveMemberRefs(
  db: Queryable,
  organizationId: string,
  refs: string[],
  enabledOnly: boolean,
): Promise<Map<string, string>> {
  const emails = refs.filter((r) => r.includes('@')).map((r) => r.toLowerCase());
  const rows = await db.query<{ user_id: string; email: string | null }>(
    `SELECT m.user_id, u.email FROM members m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND (m.user_id = ANY($2::text[]) OR lower(u.email) = ANY($3::text[]))
        ${enabledOnly ? 'AND NOT m.disabled' : ''}`,
    [organizationId, refs, emails],
  );
  const found = new Map<string, string>();
  for (const ref of refs) {
    const row = rows.find(
      (r) => r.user_id === ref || (r.email !== null && r.email.toLowerCase() === ref.toLowerCase()),
    );
    if (row) found.set(ref, row.user_id);
  }
  return found;
}

/** Adds users to a team, or sets the ownership of those already in it. */
export async function upsertTeamMembers(
  db: Queryable,
  teamId: string,
  userIds: string[],
  isOwner: boolean,
): Promise<void> {
  if (userIds.length === 0) return;
  await db.query(
    `INSERT INTO team_members (team_id, user_id, is_owner) SELECT $1, unnest($2::text[]), $3
     ON CONFLICT (team_id, user_id) DO UPDATE SET is_owner = EXCLUDED.is_owner`,
    [teamId, userIds, isOwner],
  );
}

/** Removes users from a team; the number of memberships removed. */
export async function deleteTeamMembers(db: Queryable, teamId: string, userIds: string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const deleted = await db.query(
    'DELETE FROM team_members WHERE team_id = $1 AND user_id = ANY($2::text[]) RETURNING user_id',
    [teamId, userIds],
  );
  return deleted.length;
}

/** One page of the teams holding a direct grant on a space or collection, with the granted role (`granted_role`). */
export function listTeamRowsGrantedOn(
  db: Queryable,
  organizationId: string,
  callerId: string,
  resource: { type: 'space' | 'collection'; id: string },
  page: Page,
): Promise<CountedPage<TeamRow & { granted_role: string }>> {
  const q = new TeamQuery(organizationId, callerId);
  q.joins = `JOIN content_permissions gp ON gp.principal_type = 'team' AND gp.principal_id = t.id
    AND gp.resource_type = ${q.param(resource.type)} AND gp.resource_id = ${q.param(resource.id)}`;
  q.extraColumns = ', gp.role AS granted_role';
  return q.page(db, page);
}

/** Which of `teamIds` are teams of the organization. */
export async function teamIdsInOrganization(
  db: Queryable,
  organizationId: string,
  teamIds: string[],
): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM teams WHERE organization_id = $1 AND id = ANY($2::text[])',
    [organizationId, teamIds],
  );
  return new Set(rows.map((r) => r.id));
}
