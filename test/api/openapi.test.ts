import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server';
import { raw } from '../helpers/api';

/**
 * The published OpenAPI document is generated from the route schemas. This
 * checks it lists every GitBook operation Folio implements, under GitBook's
 * operationId, at GitBook's method and path (so `@gitbook/api` reaches it).
 */
const IMPLEMENTED_OPERATIONS =
  `getApiInformation getAuthenticatedUser getUserById createOrganization listOrganizationsForAuthenticatedUser getOrganizationById
updateOrganizationById getOrganizationsForEmailDomain listSpacesInOrganizationById createSpace inviteUsersToOrganization
listOrganizationInviteLinks createOrganizationInvite getOrganizationInviteLink updateOrganizationInviteById
deleteOrganizationInviteById joinOrganizationWithInvite listMembersInOrganizationById getMemberInOrganizationById
removeMemberFromOrganizationById updateMemberInOrganizationById updateOrganizationMemberLastSeenAt
setUserAsSSOMemberForOrganization listSpacesForOrganizationMember listTeamsForOrganizationMember
listTeamsInOrganizationById createOrganizationTeam getTeamInOrganizationById removeTeamFromOrganizationById
updateTeamInOrganizationById listTeamMembersInOrganizationById updateMembersInOrganizationTeam
addMemberToOrganizationTeamById deleteMemberFromOrganizationTeamById listSAMLProvidersInOrganizationById
createOrganizationSAMLProvider getOrganizationSAMLProviderById updateOrganizationSAMLProvider
deleteOrganizationSAMLProvider listSSOProviderLoginsInOrganization listUserPermissionsInSpace
listTeamPermissionsInSpace inviteToSpace updateUserPermissionInSpace updateTeamPermissionInSpace removeUserFromSpace
removeTeamFromSpace listUserPermissionsInCollection listTeamPermissionsInCollection inviteToCollection
updateUserPermissionInCollection updateTeamPermissionInCollection removeUserFromCollection removeTeamFromCollection
getCollectionById deleteCollectionById updateCollectionById listSpacesInCollectionById
moveCollection transferCollection listCollectionsInOrganizationById createCollection getSpaceById deleteSpaceById
updateSpaceById duplicateSpace restoreSpace moveSpace
getCurrentRevision listPages listFiles getFileById getPageById getPageByPath getRevisionById listPagesInRevisionById
getPageInRevisionById listFilesInRevisionById getFileInRevisionById getRevisionSemanticChanges searchSpaceContent searchOrganizationContent
generateStorageUploadURL listChangeRequestsForSpace createChangeRequest getChangeRequestById updateChangeRequestById
mergeChangeRequest updateChangeRequest updateChangeRequestContent getChangeRequestPDF getChangeRequestChanges getReviewsByChangeRequestId
submitChangeRequestReview getChangeRequestReviewById getRequestedReviewersByChangeRequestId requestReviewersForChangeRequest
removeRequestedReviewerFromChangeRequest getRevisionOfChangeRequestById listPagesInChangeRequest listFilesInChangeRequestById
getFileInChangeRequestById getPageInChangeRequestById getPageInChangeRequestByPath listCommentsInSpace postCommentInSpace
getCommentInSpace updateCommentInSpace deleteCommentInSpace postCommentReplyInSpace getCommentReplyInSpace
updateCommentReplyInSpace deleteCommentReplyInSpace listCommentRepliesInSpace listCommentsInChangeRequest
postCommentInChangeRequest getCommentInChangeRequest updateCommentInChangeRequest deleteCommentInChangeRequest
listCommentRepliesInChangeRequest postCommentReplyInChangeRequest getCommentReplyInChangeRequest
updateCommentReplyInChangeRequest deleteCommentReplyInChangeRequest
listSites createSite getSiteById updateSiteById deleteSiteById publishSite unpublishSite getPublishedContentSite
getSiteCustomizationById updateSiteCustomizationById
getSitePublishingAuthById regenerateSitePublishingAuthById getSiteAdaptiveSchema updateSiteAdaptiveSchema
listSiteAdaptiveTemplateConditions listSiteSections addSectionToSite updateSiteSectionById deleteSiteSectionById
moveSiteSection listSiteSectionGroups addSectionGroupToSite updateSiteSectionGroupById deleteSiteSectionGroupById
moveSiteSectionGroup listSiteSpaces addSpaceToSite updateSiteSpaceById deleteSiteSpaceById moveSiteSpace
listOpenAPISpecs createOpenAPISpec getOpenAPISpecBySlug createOrUpdateOpenAPISpecBySlug deleteOpenAPISpecBySlug
updateOpenAPISpecBySlug listOpenAPISpecVersions getLatestOpenAPISpecVersion getLatestOpenAPISpecVersionContent
getLatestOpenAPISpecVersionContentRaw getOpenAPISpecVersionById getOpenAPISpecVersionContentById
listImportRuns startImportRun getImportRun cancelImportRun
applyTemplateToSpace getComputedRevision getComputedDocument
importGitRepository exportToGitRepository getSpaceGitInfo
listTranslations createTranslation getTranslation updateTranslation deleteTranslation runTranslation
listGlossaryEntries updateGlossaryEntries getGlossaryEntry
listIntegrations getIntegrationByName publishIntegration unpublishIntegration setIntegrationDevelopmentMode
disableIntegrationDevelopmentMode listIntegrationEvents getIntegrationEvent listOrganizationIntegrations
listIntegrationInstallations installIntegration getIntegrationInstallationById updateIntegrationInstallation
uninstallIntegration listIntegrationInstallationSpaces installIntegrationOnSpace getIntegrationSpaceInstallation
updateIntegrationSpaceInstallation uninstallIntegrationFromSpace listIntegrationSpaceInstallations
listIntegrationInstallationSites installIntegrationOnSite getIntegrationSiteInstallation updateIntegrationSiteInstallation
uninstallIntegrationFromSite listIntegrationSiteInstallations listSpaceIntegrations listSiteIntegrations
renderIntegrationUIWithPost renderIntegrationUIWithGet listSpaceIntegrationsBlocks queueIntegrationTask
getOrganizationIntegrationStatus listOrganizationIntegrationsStatus createIntegrationInstallationToken`.split(/\s+/);

type Doc = { paths: Record<string, Record<string, { operationId?: string }>> };
const require = createRequire(import.meta.url);
const gitbook = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as Doc;

function operationIndex(doc: Doc, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op?.operationId)
        out.set(op.operationId, `${method.toUpperCase()} ${prefix}${path.replace(/\{(\w+)\}/g, '{$1}')}`);
    }
  }
  return out;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('published OpenAPI document', () => {
  it("is public and lists every implemented GitBook operation at GitBook's method and path", async () => {
    const res = await raw(t, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as Doc & { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1/);
    const ours = operationIndex(doc);
    const theirs = operationIndex(gitbook, '/v1');
    for (const id of IMPLEMENTED_OPERATIONS) {
      expect(ours.get(id), `operation ${id} missing from /v1/openapi.json`).toBeDefined();
      expect(ours.get(id), `operation ${id} is not where GitBook has it`).toBe(theirs.get(id));
    }
  });

  it('serves a browsable reference page', async () => {
    const res = await fetch(`${t.url}/reference/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });
});
