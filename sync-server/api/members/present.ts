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
 * Columns of a member row joined with its user (`m`, `u`). The two counts are
 * correlated subselects so that a page of members is one query, however many
 * members it holds (both use the principal/user indexes).
 */
export const MEMBER_COLUMNS = `m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
  u.display_name, u.email, u.photo_url,
  (SELECT count(*)::int FROM content_permissions cp JOIN spaces s ON s.id = cp.resource_id
    WHERE cp.principal_type = 'user' AND cp.principal_id = m.user_id AND cp.resource_type = 'space'
      AND s.organization_id = m.organization_id AND s.deleted_at IS NULL) AS space_count,
  (SELECT count(*)::int FROM team_members tm JOIN teams t ON t.id = tm.team_id
    WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_count`;

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
