/**
 * Which REST operations an integration or installation token may call, by operationId (the route
 * schema's `operationId`, GitBook's names): deny by default. Each operation lists the manifest
 * scopes (GitBook's IntegrationScope) of which the caller needs one. This is a gate in front of
 * policy, never instead of it: an installation that holds `space:content:read` still sees only the
 * spaces it is installed on (access/actor.ts), and a write scope does not make a read-only grant
 * writable.
 *
 * Two markers instead of scopes: INTEGRATION_ONLY (the integration's own token: its installations,
 * minting installation tokens; GitBook's `integration` security scheme) and ANY_INTEGRATION (every
 * integration principal, e.g. "who am I").
 */

/** Only the integration's own token (not an installation's). */
export const INTEGRATION_ONLY = '@integration';
/** Any integration or installation token. */
export const ANY_INTEGRATION = '@any';

// A write scope implies the read of the same thing (an integration that may write a page may read it).
const CONTENT_READ = ['space:content:read', 'space:content:write'];
const CONTENT_WRITE = ['space:content:write'];
const METADATA_READ = ['space:metadata:read', 'space:metadata:write', ...CONTENT_READ];
const COMMENTS_READ = ['comments:read', 'comments:write'];
const COMMENTS_WRITE = ['comments:write'];
const GIT = ['space:git:sync'];
const SITE_READ = ['site:metadata:read', 'site:metadata:write'];
const OPENAPI_READ = ['openapi:read', 'openapi:write'];
const OPENAPI_WRITE = ['openapi:write'];

const table: Record<string, readonly string[]> = {};
const map = (scopes: readonly string[], ops: string) => {
  for (const op of ops.split(/\s+/).filter(Boolean)) table[op] = scopes;
};

map([ANY_INTEGRATION], 'getAuthenticatedUser getIntegrationByName listIntegrations getIntegrationInstallationById');
map([INTEGRATION_ONLY], 'createIntegrationInstallationToken listIntegrationInstallations queueIntegrationTask');
map(METADATA_READ, 'getSpaceById listSpacesInOrganizationById');
map(['space:metadata:write'], 'updateSpaceById');
map(
  CONTENT_READ,
  `getCurrentRevision listPages listFiles getFileById getPageById getPageByPath getRevisionById
   listPagesInRevisionById getPageInRevisionById listFilesInRevisionById getFileInRevisionById
   getRevisionSemanticChanges searchSpaceContent getComputedRevision getComputedDocument listSpaceRevisions
   listSpaceLinks downloadFile downloadRevisionPdf listChangeRequestsForSpace getChangeRequestById
   getChangeRequestChanges getChangeRequestPDF getReviewsByChangeRequestId getChangeRequestReviewById
   getRequestedReviewersByChangeRequestId getRevisionOfChangeRequestById listPagesInChangeRequest
   listFilesInChangeRequestById getFileInChangeRequestById getPageInChangeRequestById getPageInChangeRequestByPath`,
);
map(
  CONTENT_WRITE,
  `createChangeRequest updateChangeRequestById updateChangeRequestContent importContentInChangeRequest importContent
   mergeChangeRequest updateChangeRequest generateStorageUploadURL uploadStorageFile applyTemplateToSpace
   submitChangeRequestReview requestReviewersForChangeRequest removeRequestedReviewerFromChangeRequest`,
);
map(
  COMMENTS_READ,
  `listCommentsInSpace getCommentInSpace listCommentRepliesInSpace getCommentReplyInSpace listCommentsInChangeRequest
   getCommentInChangeRequest listCommentRepliesInChangeRequest getCommentReplyInChangeRequest`,
);
map(
  COMMENTS_WRITE,
  `postCommentInSpace updateCommentInSpace deleteCommentInSpace postCommentReplyInSpace updateCommentReplyInSpace
   deleteCommentReplyInSpace postCommentInChangeRequest updateCommentInChangeRequest deleteCommentInChangeRequest
   postCommentReplyInChangeRequest updateCommentReplyInChangeRequest deleteCommentReplyInChangeRequest`,
);
map(GIT, 'importGitRepository exportToGitRepository');
map([...GIT, ...CONTENT_READ], 'getSpaceGitInfo');
map(SITE_READ, 'getSiteById listSites');
map(['site:adaptive:read', 'site:adaptive:write'], 'getSiteAdaptiveSchema');
map(['site:adaptive:write'], 'updateSiteAdaptiveSchema');
map(
  OPENAPI_READ,
  `listOpenAPISpecs getOpenAPISpecBySlug listOpenAPISpecVersions getLatestOpenAPISpecVersion
   getLatestOpenAPISpecVersionContent getLatestOpenAPISpecVersionContentRaw getOpenAPISpecVersionById
   getOpenAPISpecVersionContentById`,
);
map(OPENAPI_WRITE, 'createOpenAPISpec createOrUpdateOpenAPISpecBySlug updateOpenAPISpecBySlug deleteOpenAPISpecBySlug');

/** The scopes (one of which is needed) of an operation; undefined: no integration token may call it. */
export function scopesForOperation(operationId: string | undefined): readonly string[] | undefined {
  return operationId === undefined ? undefined : table[operationId];
}

/** The operations the table maps (for tests and docs). */
export const mappedOperations = (): string[] => Object.keys(table);

/**
 * Why a caller holding `held` (its manifest scopes; `installation`: whether it is an installation
 * token) may not call `operationId`, or undefined when it may.
 */
export function scopeRefusal(
  operationId: string | undefined,
  caller: { scopes: readonly string[]; installation: boolean },
): string | undefined {
  const needed = scopesForOperation(operationId);
  const name = operationId ?? 'this operation';
  if (!needed) return `Integration tokens may not call ${name}`;
  if (needed.includes(ANY_INTEGRATION)) return undefined;
  if (needed.includes(INTEGRATION_ONLY))
    return caller.installation ? `Only the integration's own token may call ${name}` : undefined;
  if (needed.some((s) => caller.scopes.includes(s))) return undefined;
  return `The integration lacks the scope ${needed[0]} needed for ${name}${needed.length > 1 ? ` (or one of: ${needed.slice(1).join(', ')})` : ''}`;
}
