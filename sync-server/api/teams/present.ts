import type { RoleOrNone } from '../../policy/roles';
import { teamPermissions, type TeamResource } from '../../policy/team';
import type { TeamRow } from '../../store/teams';

/** A team row as a policy resource (ownership is the caller's, as the row was read for them). */
export function teamResource(t: TeamRow): TeamResource {
  return { type: 'team', organizationId: t.organization_id, ownedByCaller: t.caller_owns };
}

/** Row -> API `OrganizationTeam`, with the permissions of a caller whose organization role is `callerRole`. */
export function presentTeam(t: TeamRow, callerRole: RoleOrNone | undefined) {
  return {
    object: 'team' as const,
    id: t.id,
    title: t.title,
    members: Number(t.member_count),
    spaces: Number(t.space_count),
    createdAt: t.created_at.toISOString(),
    permissions: teamPermissions({ role: callerRole }, teamResource(t)),
  };
}
