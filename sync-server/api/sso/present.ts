import type { AppContext } from '../../context';
import { serviceProviderUrls } from '../../identity/saml-urls';
import { isRole } from '../../policy/roles';
import type { SamlProviderRow } from '../../store/saml-providers';
import type { TeamRow } from '../../store/teams';
import { presentTeam } from '../teams/present';
import type { RoleOrNone } from '../../policy/roles';

/**
 * GitBook's schema requires `ssoURL` to be a URI even while a provider is
 * pending (created with a label only): the URI that names no address.
 */
export const NO_SSO_URL = 'about:blank';

/** Whether a provider can sign people in: its IdP's entity ID, SSO URL and certificate are all set. */
export function isConfigured(p: SamlProviderRow): boolean {
  return Boolean(p.entity_id && p.sso_url && p.certificate);
}

/** Row -> GitBook's `OrganizationSAMLProvider`; `team` is the default team as the caller sees it. */
export function presentSamlProvider(
  ctx: AppContext,
  p: SamlProviderRow,
  team: TeamRow | undefined,
  callerRole: RoleOrNone | undefined,
) {
  const sp = serviceProviderUrls(ctx.urls.root, p.id);
  return {
    object: 'saml-provider' as const,
    id: p.id,
    label: p.label,
    ssoURL: p.sso_url ?? NO_SSO_URL,
    entityID: p.entity_id ?? '',
    certificate: p.certificate ?? '',
    ...(team ? { defaultTeam: presentTeam(team, callerRole) } : {}),
    defaultRole: isRole(p.default_role) ? p.default_role : null,
    createdAt: p.created_at.toISOString(),
    status: isConfigured(p) ? ('active' as const) : ('pending' as const),
    service: { acsURL: sp.acsURL, startURL: sp.startURL, entityID: sp.entityID },
    urls: { location: ctx.urls.api(`/orgs/${p.organization_id}/saml/${p.id}`) },
  };
}
