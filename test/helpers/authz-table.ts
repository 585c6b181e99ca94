import type { OperationCase, OperationTable } from './authz-cases';
import { CONTENT_OPERATIONS } from './authz-table-content';
import { OPENAPI_OPERATIONS } from './authz-table-openapi';
import { TRANSLATION_OPERATIONS } from './authz-table-translations';
import { INTEGRATION_ANY_CALLER, INTEGRATION_OPERATIONS, INTEGRATION_PUBLIC } from './authz-table-integrations';
import { INSTALLATION_OPERATIONS } from './authz-table-installations';
import { IMPORT_OPERATIONS } from './authz-table-imports';
import { GIT_OPERATIONS } from './authz-table-git';
import { ORGANIZATION_OPERATIONS } from './authz-table-org';
import { SITE_OPERATIONS } from './authz-table-sites';

/**
 * The authorization matrix's rows: every operation of `/v1/openapi.json`
 * falls in exactly one of these (a test fails on an operation that is in
 * none, so a new route must be classified before it ships):
 * - PUBLIC: answers every caller, token or not;
 * - SIGNED: authorized by a signature in its URL, whatever the token;
 * - ABOUT_THE_CALLER: about the caller themself (any valid token; 401 without);
 * - OPERATIONS: everything else, whose expected answer per caller is
 *   computed from policy (authz-expect.ts).
 */

/**
 * getPublishedOpenAPISpec serves a public spec to anyone (a private or unknown one is a 404 to all);
 * listTemplates lists the built-in space templates, the same for everyone.
 */
export const PUBLIC_OPERATIONS = new Set([
  'getApiInformation',
  'getPublishedOpenAPISpec',
  'listTemplates',
  ...INTEGRATION_PUBLIC,
]);

/** receiveGitWebhook: the secret in a space's webhook URL is the credential (test/api/git-sync-auto.test.ts). */
export const SIGNED_OPERATIONS = new Set([
  'uploadStorageFile',
  'downloadFile',
  'downloadRevisionPdf',
  'receiveGitWebhook',
]);

/**
 * The invite id is the credential of joinOrganizationWithInvite (any signed-in
 * user holding it may join); the others read or create the caller's own things.
 */
export const ABOUT_THE_CALLER = new Set([
  'getAuthenticatedUser',
  'getUserById',
  'listOrganizationsForAuthenticatedUser',
  'createOrganization',
  'getOrganizationsForEmailDomain',
  'joinOrganizationWithInvite',
  'listUserTokens',
  'revokeUserToken',
  ...INTEGRATION_ANY_CALLER,
]);

export const OPERATIONS: OperationTable = {
  ...ORGANIZATION_OPERATIONS,
  ...CONTENT_OPERATIONS,
  ...SITE_OPERATIONS,
  ...OPENAPI_OPERATIONS,
  ...IMPORT_OPERATIONS,
  ...GIT_OPERATIONS,
  ...TRANSLATION_OPERATIONS,
  ...INTEGRATION_OPERATIONS,
  ...INSTALLATION_OPERATIONS,
};

/** The cases of an operation (one unless the table lists variants). */
export function casesOf(operationId: string): OperationCase[] {
  const entry = OPERATIONS[operationId];
  if (!entry) return [];
  return Array.isArray(entry) ? entry : [entry];
}

export type { OperationCase };
