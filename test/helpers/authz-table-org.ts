import type { OrganizationAction } from '../../sync-server/policy/organization';
import type { OperationTable } from './authz-cases';
import { ask } from './authz-expect';
import { MATRIX_DOMAIN } from './authz-fixture';
import { fresh, TITLES } from './authz-fresh';

/** Organization-wide operations: the organization, members, invites, teams, collections, spaces, storage. */

const inOrg = (action: OrganizationAction) => (_w: unknown, p: Record<string, string>) => [
  ask.organization(p.organizationId!, action),
];

let invitee = 0;
let claimed = 0;

export const ORGANIZATION_OPERATIONS: OperationTable = {
  getOrganizationById: { checks: inOrg('view') },
  updateOrganizationById: { body: () => ({ title: TITLES.organization }), checks: inOrg('update') },
  updateOrganizationMemberLastSeenAt: { checks: inOrg('view') },

  listMembersInOrganizationById: { checks: inOrg('list-members') },
  getMemberInOrganizationById: { checks: inOrg('view-members') },
  updateMemberInOrganizationById: { body: () => ({ role: 'read' }), checks: inOrg('change-member-roles') },
  removeMemberFromOrganizationById: { params: fresh.member, checks: inOrg('remove-members') },
  setUserAsSSOMemberForOrganization: { checks: inOrg('set-sso-members') },
  listSpacesForOrganizationMember: { checks: inOrg('list-member-spaces') },
  listTeamsForOrganizationMember: { checks: inOrg('list-member-teams') },

  listOrganizationDomains: { checks: inOrg('manage-domains') },
  addOrganizationDomain: { body: () => ({ domain: `claimed-${++claimed}.test` }), checks: inOrg('manage-domains') },
  // An already verified domain: answered from the stored proof, so no cell asks DNS.
  verifyOrganizationDomain: { params: () => ({ domain: MATRIX_DOMAIN }), checks: inOrg('manage-domains') },
  approveOrganizationDomain: {
    params: () => ({ domain: MATRIX_DOMAIN }),
    checks: () => [ask.instance('approve-domains')],
  },
  removeOrganizationDomain: {
    params: () => ({ domain: `unclaimed-${++claimed}.test` }),
    checks: inOrg('manage-domains'),
  },

  inviteUsersToOrganization: {
    body: () => ({ emails: [`matrix-invitee-${++invitee}@example.com`] }),
    checks: inOrg('invite-members'),
  },
  listOrganizationInviteLinks: { checks: inOrg('manage-invite-links') },
  createOrganizationInvite: [
    { label: 'to the organization', body: () => ({ role: 'read' }), checks: inOrg('manage-invite-links') },
    {
      label: 'to a space',
      body: (w) => ({ level: 'read', space: w.spaceId }),
      checks: (w, p) => [ask.organization(p.organizationId!, 'view'), ask.space(w.spaceId, 'manage-invite-links')],
    },
  ],
  getOrganizationInviteLink: [
    { label: 'to the organization', checks: inOrg('manage-invite-links') },
    {
      // Links to content are managed by that content's admins (the invited guest administers `root`).
      label: 'to a collection',
      params: (w) => ({ inviteId: w.collectionInviteId }),
      checks: (w, p) => [
        ask.organization(p.organizationId!, 'view'),
        ask.collection(w.rootCollectionId, 'manage-invite-links'),
      ],
    },
  ],
  updateOrganizationInviteById: { body: () => ({ role: 'read' }), checks: inOrg('manage-invite-links') },
  deleteOrganizationInviteById: { params: fresh.invite, checks: inOrg('manage-invite-links') },

  listTeamsInOrganizationById: { checks: inOrg('list-teams') },
  createOrganizationTeam: { body: () => ({ title: 'Created by the matrix' }), checks: inOrg('create-teams') },
  getTeamInOrganizationById: { checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'view')] },
  updateTeamInOrganizationById: {
    body: () => ({ title: TITLES.team }),
    checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'admin')],
  },
  removeTeamFromOrganizationById: { params: fresh.team, checks: inOrg('delete-teams') },
  listTeamMembersInOrganizationById: { checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'view')] },
  updateMembersInOrganizationTeam: {
    // Writes back what is there: the target member stays in the fixture's team.
    body: (w) => ({ add: [w.memberId] }),
    checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'admin')],
  },
  addMemberToOrganizationTeamById: { checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'admin')] },
  // A fresh team without the member: an allowed removal answers 204 ("was not part of the team").
  deleteMemberFromOrganizationTeamById: {
    params: fresh.team,
    checks: (_w, p) => [ask.team(p.organizationId!, p.teamId!, 'admin')],
  },

  listSAMLProvidersInOrganizationById: { checks: inOrg('manage-sso') },
  createOrganizationSAMLProvider: { body: () => ({ label: 'Matrix IdP' }), checks: inOrg('manage-sso') },
  getOrganizationSAMLProviderById: { params: fresh.samlProvider, checks: inOrg('manage-sso') },
  updateOrganizationSAMLProvider: {
    params: fresh.samlProvider,
    body: () => ({ label: 'Matrix IdP' }),
    checks: inOrg('manage-sso'),
  },
  // A provider already deleted: an allowed DELETE answers 204 ("did not exist"), a refused one still 403.
  deleteOrganizationSAMLProvider: { params: fresh.goneSamlProvider, checks: inOrg('manage-sso') },
  listSSOProviderLoginsInOrganization: { checks: inOrg('list-sso-logins') },

  listCollectionsInOrganizationById: {
    query: { limit: '1000' },
    checks: inOrg('view'),
    shows: (w) => [w.rootCollectionId, w.collectionId].map((id) => ({ id, check: ask.collection(id, 'view') })),
  },
  createCollection: {
    body: (w) => ({ title: 'Created by the matrix', parent: w.rootCollectionId }),
    checks: (w, p) => [ask.organization(p.organizationId!, 'view'), ask.collection(w.rootCollectionId, 'create-in')],
  },
  getCollectionById: { checks: (_w, p) => [ask.collection(p.collectionId!, 'view')] },
  listSpacesInCollectionById: {
    params: (w) => ({ collectionId: w.rootCollectionId }),
    query: { limit: '1000' },
    checks: (_w, p) => [ask.collection(p.collectionId!, 'view')],
    shows: (w) => [{ id: w.spaceId, check: ask.space(w.spaceId, 'view') }],
  },
  updateCollectionById: {
    body: () => ({ title: TITLES.collection }),
    checks: (_w, p) => [ask.collection(p.collectionId!, 'update')],
  },
  deleteCollectionById: { params: fresh.collection, checks: (_w, p) => [ask.collection(p.collectionId!, 'delete')] },
  moveCollection: {
    params: fresh.collection,
    body: (w) => ({ parent: w.collectionId }),
    checks: (w, p) => [
      ask.collection(p.collectionId!, 'move'),
      ask.organization(w.organizationId, 'organize-content'),
      // A parent the caller cannot see is reported like one that does not exist: 400 "unknown collection".
      ask.collection(w.collectionId, 'create-in', { notFound: 400 }),
    ],
  },
  transferCollection: {
    params: fresh.collection,
    body: (w) => ({ organization: w.targetOrganizationId }),
    checks: (w, p) => [
      ask.collection(p.collectionId!, 'transfer'),
      ask.organization(w.organizationId, 'transfer-content-out'),
      ask.organization(w.targetOrganizationId, 'create-content'),
    ],
  },

  listSpacesInOrganizationById: {
    query: { limit: '1000' },
    checks: inOrg('view'),
    shows: (w) => [w.spaceId, w.topSpaceId].map((id) => ({ id, check: ask.space(id, 'view') })),
  },
  createSpace: [
    { label: 'at the top level', body: () => ({ title: 'Created by the matrix' }), checks: inOrg('create-content') },
    {
      label: 'in a collection',
      body: (w) => ({ title: 'Created by the matrix', parent: w.rootCollectionId }),
      checks: (w, p) => [ask.organization(p.organizationId!, 'view'), ask.collection(w.rootCollectionId, 'create-in')],
    },
  ],
  getSpaceById: { checks: (_w, p) => [ask.space(p.spaceId!, 'view')] },
  updateSpaceById: { body: () => ({ title: TITLES.space }), checks: (_w, p) => [ask.space(p.spaceId!, 'update')] },
  deleteSpaceById: { params: fresh.space, checks: (_w, p) => [ask.space(p.spaceId!, 'delete')] },
  restoreSpace: { params: fresh.deletedSpace, checks: (_w, p) => [ask.space(p.spaceId!, 'restore')] },
  duplicateSpace: {
    checks: (w, p) => [
      ask.space(p.spaceId!, 'duplicate'),
      // The copy lands next to the original; any refusal there is worded "you need create where the copy goes".
      ask.collection(w.rootCollectionId, 'create-in', { refusal: 403 }),
    ],
  },
  moveSpace: [
    {
      label: 'into a collection',
      params: fresh.space,
      body: (w) => ({ parent: w.collectionId }),
      checks: (w, p) => [
        ask.space(p.spaceId!, 'move'),
        ask.organization(w.organizationId, 'organize-content'),
        ask.collection(w.collectionId, 'create-in', { notFound: 400 }),
      ],
    },
    {
      label: 'to the top level',
      params: fresh.space,
      body: () => ({ parent: null }),
      checks: (w, p) => [
        ask.space(p.spaceId!, 'move'),
        ask.organization(w.organizationId, 'organize-content'),
        ask.organization(w.organizationId, 'create-content'),
      ],
    },
  ],
  transferSpace: {
    params: fresh.space,
    body: (w) => ({ organization: w.targetOrganizationId }),
    checks: (w, p) => [
      ask.space(p.spaceId!, 'transfer'),
      ask.organization(w.organizationId, 'transfer-content-out'),
      ask.organization(w.targetOrganizationId, 'create-content'),
    ],
  },

  generateStorageUploadURL: {
    body: () => ({ file: { name: 'a.txt', type: 'text/plain', size: 1 }, kind: 'organization_file' }),
    checks: inOrg('upload-files'),
  },
};
