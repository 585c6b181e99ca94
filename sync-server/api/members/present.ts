import type { AppContext } from '../../context';
import type { MemberRow } from '../../store/members';
import { presentUser, type UserViewer } from '../system/present-user';
import { storedRole } from './membership';

/** Row -> API `OrganizationMember`, as `viewer` may see it. */
export function presentMember(ctx: AppContext, viewer: UserViewer, r: MemberRow) {
  return {
    object: 'member' as const,
    id: r.user_id,
    role: storedRole(r.role),
    user: presentUser(ctx, viewer, {
      id: r.user_id,
      display_name: r.display_name,
      email: r.email,
      photo_url: r.photo_url,
    }),
    disabled: r.disabled,
    joinedAt: r.joined_at.toISOString(),
    ...(r.last_seen_at ? { lastSeenAt: r.last_seen_at.toISOString() } : {}),
    sso: r.sso,
    spaces: Number(r.space_count),
    teams: Number(r.team_count),
    // Sites follow the organization role (policy/site.ts): there are no per-member site grants to count.
    sites: 0,
  };
}
