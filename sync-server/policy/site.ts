import { ALLOW, deny, forbidden, type Decision } from './decision';
import { atLeast, type Role } from './roles';
import type { Subject } from './subject';

/**
 * A docs site as policy sees it. Sites belong to an organization and follow
 * its roles, as in GitBook: members (any role) read, "create" manages the
 * structure and settings, "admin" deletes and reads the visitor signing key.
 * Guests and non-members learn nothing: 404.
 */
export interface SiteResource {
  type: 'site';
  organizationId: string;
}

const SITE_RULES = {
  view: { role: 'read', phrase: 'see this site' },
  edit: { role: 'edit', phrase: 'edit this site' },
  manage: { role: 'create', phrase: 'manage this site' },
  'edit-adaptive-schema': { role: 'create', phrase: 'change the adaptive schema' },
  admin: { role: 'admin', phrase: 'administer this site' },
  'install-integration': { role: 'admin', phrase: 'install integrations on this site' },
} satisfies Record<string, { role: Role; phrase: string }>;

export type SiteAction = keyof typeof SITE_RULES;

/** May `subject` (with their organization role) do `action` to a site of that organization? */
export function decideSite(subject: Subject, action: SiteAction, _site: SiteResource, phrase?: string): Decision {
  if (!subject.role) return deny({ reason: 'not-found', what: 'Organization' });
  const rule = SITE_RULES[action];
  if (atLeast(subject.role, rule.role)) return ALLOW;
  return forbidden(`You need the "${rule.role}" role in this organization to ${phrase ?? rule.phrase}`);
}

/** The `permissions` object of a Site. */
export function sitePermissions(subject: Subject, site: SiteResource) {
  const can = (action: SiteAction) => decideSite(subject, action, site).allowed;
  return {
    view: can('view'),
    access: can('view'),
    edit: can('edit'),
    create: can('manage'),
    admin: can('admin'),
    installIntegration: can('install-integration'),
    viewAdaptiveSchema: can('view'),
    editAdaptiveSchema: can('edit-adaptive-schema'),
  };
}
