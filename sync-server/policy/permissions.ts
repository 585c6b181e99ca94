import { atLeast, type RoleOrNone } from './roles';

/**
 * The `permissions` objects of API resources, computed from the same roles
 * that routes check, so what a client is told it may do is what it may do.
 */
export function organizationPermissions(orgRole: RoleOrNone | undefined) {
  const member = orgRole !== undefined;
  const fullMember = member && orgRole !== null;
  const admin = orgRole === 'admin';
  return {
    view: member,
    admin,
    ownTeam: fullMember,
    createContent: atLeast(orgRole ?? null, 'create'),
    createOpenAPISpec: atLeast(orgRole ?? null, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: fullMember,
    listTeams: fullMember,
    listIntegrations: fullMember,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function collectionPermissions(role: RoleOrNone) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

export function spacePermissions(role: RoleOrNone, locked: boolean) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    // A locked space refuses every content edit, whatever the role.
    edit: atLeast(role, 'edit') && !locked,
    triggerGitSync: atLeast(role, 'admin'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review') && !locked,
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

export function teamPermissions(orgRole: RoleOrNone | undefined, isTeamOwner: boolean) {
  return { admin: orgRole === 'admin' || isTeamOwner, view: orgRole !== undefined && orgRole !== null };
}

/**
 * A docs site's `permissions` for a caller with organization role `orgRole`:
 * sites follow the organization role (members read, creators manage the
 * structure and settings, admins also delete and see the visitor key).
 */
export function sitePermissions(orgRole: RoleOrNone) {
  return {
    view: atLeast(orgRole, 'read'),
    access: atLeast(orgRole, 'read'),
    edit: atLeast(orgRole, 'edit'),
    create: atLeast(orgRole, 'create'),
    admin: atLeast(orgRole, 'admin'),
    installIntegration: atLeast(orgRole, 'admin'),
    viewAdaptiveSchema: atLeast(orgRole, 'read'),
    editAdaptiveSchema: atLeast(orgRole, 'create'),
  };
}
