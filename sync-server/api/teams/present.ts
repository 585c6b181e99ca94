import { teamPermissions } from '../../policy/permissions';
import type { RoleOrNone } from '../../policy/roles';

/** A team row with its counts and the caller's ownership, as TEAM_COLUMNS selects it. */
export interface TeamRow {
  id: string;
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
export const TEAM_COLUMNS = `t.id, t.title, t.created_at,
  (SELECT count(*)::int FROM team_members tm
     JOIN members m ON m.organization_id = t.organization_id AND m.user_id = tm.user_id
    WHERE tm.team_id = t.id) AS member_count,
  (SELECT count(DISTINCT cp.resource_id)::int FROM content_permissions cp
     JOIN spaces s ON s.id = cp.resource_id AND s.organization_id = t.organization_id AND s.deleted_at IS NULL
    WHERE cp.principal_type = 'team' AND cp.principal_id = t.id AND cp.resource_type = 'space') AS space_count,
  EXISTS (SELECT 1 FROM team_members ow WHERE ow.team_id = t.id AND ow.user_id = $2 AND ow.is_owner) AS caller_owns`;

/** Row -> API `OrganizationTeam`, with the caller's permissions on it. */
export function presentTeam(t: TeamRow, callerRole: RoleOrNone | undefined) {
  return {
    object: 'team' as const,
    id: t.id,
    title: t.title,
    members: Number(t.member_count),
    spaces: Number(t.space_count),
    createdAt: t.created_at.toISOString(),
    permissions: teamPermissions(callerRole, t.caller_owns),
  };
}
