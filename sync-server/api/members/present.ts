import type { AppContext } from '../../context';
import { isRole } from '../../policy/roles';
import { presentUser } from '../system/present-user';

/** One member with its user and counts, as MEMBER_SELECT returns it. */
export interface MemberRow {
  user_id: string;
  role: string | null;
  disabled: boolean;
  sso: boolean;
  joined_at: Date;
  last_seen_at: Date | null;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  space_count: number;
  team_count: number;
}

/**
 * Columns of a member row joined with its user and counts; use with
 * MEMBER_FROM, whose `$1` must be the organization id.
 */
export const MEMBER_COLUMNS = `m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
  u.display_name, u.email, u.photo_url, COALESCE(sc.n, 0) AS space_count, COALESCE(tc.n, 0) AS team_count`;

/**
 * Members of organization `$1` with their users, and the per-user counts of
 * direct space grants and teams. The counts are aggregated once per
 * organization and joined, not computed per row: with correlated subselects a
 * page of 1000 members spent most of its time counting.
 */
export const MEMBER_FROM = `FROM members m JOIN users u ON u.id = m.user_id
  LEFT JOIN (SELECT cp.principal_id AS user_id, count(*)::int AS n
               FROM content_permissions cp JOIN spaces s ON s.id = cp.resource_id
              WHERE cp.principal_type = 'user' AND cp.resource_type = 'space' AND s.organization_id = $1 AND s.deleted_at IS NULL
              GROUP BY cp.principal_id) sc ON sc.user_id = m.user_id
  LEFT JOIN (SELECT tm.user_id, count(*)::int AS n
               FROM team_members tm JOIN teams t ON t.id = tm.team_id
              WHERE t.organization_id = $1
              GROUP BY tm.user_id) tc ON tc.user_id = m.user_id`;

/** Row -> API `OrganizationMember`. */
export function presentMember(ctx: AppContext, r: MemberRow) {
  return {
    object: 'member' as const,
    id: r.user_id,
    role: isRole(r.role) ? r.role : null,
    user: presentUser(ctx, { id: r.user_id, display_name: r.display_name, email: r.email, photo_url: r.photo_url }),
    disabled: r.disabled,
    joinedAt: r.joined_at.toISOString(),
    ...(r.last_seen_at ? { lastSeenAt: r.last_seen_at.toISOString() } : {}),
    sso: r.sso,
    spaces: Number(r.space_count),
    teams: Number(r.team_count),
    // Docs sites do not exist yet, so nobody has access to any.
    sites: 0,
  };
}
