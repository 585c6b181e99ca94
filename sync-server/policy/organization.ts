import { ALLOW, deny, forbidden, type Decision } from './decision';
import { atLeast, type Role } from './roles';
import type { Subject } from './subject';

/** An organization as policy sees it (the caller's member role is the subject's role). */
export interface OrganizationResource {
  type: 'organization';
  organizationId: string;
}

/** One rule: the organization role it needs (undefined: any member, guests included; 'member': any non-guest). */
interface OrgRule {
  role?: Role | 'member';
  phrase: string;
}

const ORG_RULES = {
  view: { phrase: 'see this organization' },
  'list-members': { role: 'member', phrase: 'list the members of the organization' },
  'view-members': { role: 'member', phrase: 'see other members of the organization' },
  'list-teams': { role: 'member', phrase: 'list teams' },
  'own-team': { role: 'member', phrase: 'own a team' },
  'list-integrations': { role: 'member', phrase: 'list integrations' },
  'upload-files': { role: 'edit', phrase: 'upload files' },
  'create-content': { role: 'create', phrase: 'create content in this organization' },
  /**
   * Moving spaces and collections around the organization's tree is organizing the organization: full
   * members only (a guest holding admin on one space through an invite link may not reshuffle the tree).
   */
  'organize-content': { role: 'member', phrase: 'move content in this organization' },
  /** Content leaving the organization (a transfer): its admins decide, whatever roles a caller holds on the content. */
  'transfer-content-out': { role: 'admin', phrase: 'transfer content out of this organization' },
  'create-openapi-spec': { role: 'create', phrase: 'create OpenAPI specifications' },
  'manage-sites': { role: 'create', phrase: 'manage docs sites' },
  /** A translation creates and writes a space, and its runs spend the engine's budget: those who create content. */
  'manage-translations': { role: 'create', phrase: 'manage translations and the glossary' },
  admin: { role: 'admin', phrase: 'administer this organization' },
  update: { role: 'admin', phrase: 'change the organization settings' },
  'invite-members': { role: 'admin', phrase: 'invite members' },
  'manage-invite-links': { role: 'admin', phrase: 'manage invite links' },
  'change-member-roles': { role: 'admin', phrase: 'change the role of members' },
  'remove-members': { role: 'admin', phrase: 'remove other members' },
  'list-member-spaces': { role: 'admin', phrase: "list another member's spaces" },
  'list-member-teams': { role: 'admin', phrase: "list another member's teams" },
  'set-sso-members': { role: 'admin', phrase: 'set SSO members' },
  /** SAML identity providers hold the keys to every account they vouch for: admins only. */
  'manage-sso': { role: 'admin', phrase: 'manage SAML single sign-on' },
  /** A verified domain routes its people to this organization's SSO and lets it vouch for them: admins only. */
  'manage-domains': { role: 'admin', phrase: "manage the organization's domains" },
  /** The SSO logins one can start (id, label, start URL): every member, guests included. */
  'list-sso-logins': { phrase: 'list single sign-on logins' },
  'create-teams': { role: 'admin', phrase: 'create teams' },
  'delete-teams': { role: 'admin', phrase: 'delete teams' },
  'manage-installations': { role: 'admin', phrase: 'install integrations' },
  /** An integration runs code with the scopes its installers grant and is listed under the organization's name: admins. */
  'publish-integrations': { role: 'admin', phrase: 'publish integrations' },
  /** Where the organization's integrations are installed, with each installation's configuration: its admins. */
  'list-integration-installations': { role: 'admin', phrase: 'see where its integrations are installed' },
  'view-billing': { role: 'admin', phrase: 'see billing' },
} satisfies Record<string, OrgRule>;

export type OrganizationAction = keyof typeof ORG_RULES;

/** May `subject` (with their member role) do `action` in the organization? Non-members get 404. */
export function decideOrganization(subject: Subject, action: OrganizationAction, _org: OrganizationResource): Decision {
  if (subject.role === undefined) return deny({ reason: 'not-found', what: 'Organization' });
  const rule: OrgRule = ORG_RULES[action];
  if (rule.role === undefined) return ALLOW;
  if (subject.role === null) return forbidden(`Guests cannot ${rule.phrase}`);
  if (rule.role === 'member' || atLeast(subject.role, rule.role)) return ALLOW;
  return forbidden(`You need the "${rule.role}" role in this organization to ${rule.phrase}`);
}

/** The `permissions` object of an Organization. */
export function organizationPermissions(subject: Subject, org: OrganizationResource) {
  const can = (action: OrganizationAction) => decideOrganization(subject, action, org).allowed;
  return {
    view: can('view'),
    admin: can('admin'),
    ownTeam: can('own-team'),
    createContent: can('create-content'),
    createOpenAPISpec: can('create-openapi-spec'),
    /** Folio: create, run and delete translations, and edit the glossary. */
    manageTranslations: can('manage-translations'),
    ingestConversations: can('admin'),
    viewBilling: can('view-billing'),
    listMembers: can('list-members'),
    listTeams: can('list-teams'),
    listIntegrations: can('list-integrations'),
    listInstallations: can('manage-installations'),
    installIntegration: can('manage-installations'),
  };
}
