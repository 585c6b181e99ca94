import type { AppContext } from '../../context';
import { organizationPermissions } from '../../policy/permissions';
import { isRole, type RoleOrNone } from '../../policy/roles';

export interface OrgRow {
  id: string;
  title: string;
  created_at: Date;
  email_domains: string[];
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: string | null;
  default_content: { type: 'site'; site: string } | null;
  sso: boolean;
  ai: boolean;
  invite_links: boolean;
  logo_url: string | null;
}

/** Row -> API `Organization`, with the caller's permissions. */
export function presentOrganization(ctx: AppContext, o: OrgRow, callerRole: RoleOrNone | undefined) {
  const permissions = organizationPermissions(callerRole);
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
    defaultRole: isRole(o.default_role) ? o.default_role : null,
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
    permissions: { ...permissions, access: permissions.view },
  };
}
