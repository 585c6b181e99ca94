import type { AppContext } from '../../context';
import { organizationPermissions } from '../../policy/organization';
import type { RoleOrNone } from '../../policy/roles';
import type { OrgRow } from '../../store/organizations';
import { organization } from '../authorize';
import { storedRole } from '../members/membership';

/**
 * Row -> API `Organization`, with the permissions of a caller whose member
 * role is `callerRole` (undefined: not a member; null: guest).
 */
export function presentOrganization(ctx: AppContext, o: OrgRow, callerRole: RoleOrNone | undefined) {
  const permissions = organizationPermissions({ role: callerRole }, organization(o.id));
  return {
    object: 'organization' as const,
    id: o.id,
    title: o.title,
    createdAt: o.created_at.toISOString(),
    emailDomains: o.email_domains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    ...(o.use_case ? { useCase: o.use_case } : {}),
    ...(o.community_type ? { communityType: o.community_type } : {}),
    defaultRole: storedRole(o.default_role),
    ...(o.default_content ? { defaultContent: o.default_content } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.invite_links,
    // Self-hosted: no billing, one plan with everything.
    plan: 'enterprise_2024',
    mergeRules: { type: 'none' as const },
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: {
      location: ctx.urls.api(`/orgs/${o.id}`),
      app: ctx.urls.app(`/o/${o.id}`),
      ...(o.logo_url ? { logo: o.logo_url } : {}),
    },
    // GitBook's `access` is seeing the organization at all.
    permissions: { ...permissions, access: permissions.view },
  };
}
