import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, raw } from '../helpers/api';

/**
 * Checks every route of the published OpenAPI document (so a new route can
 * not escape it): a missing or unknown token is a 401, a `limit` outside
 * 1..1000 is a 400, and unknown ids are a 404 (204 for DELETE), each in
 * GitBook's error shape.
 */
type Operation = { operationId: string; parameters?: { in: string; name: string }[]; security?: unknown[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

let t: TestServer;
let doc: Doc;
let orgId: string;
beforeAll(async () => {
  // Hundreds of deliberate 401s from 127.0.0.1: the failed-authentication limit would answer 429 (rate-limits.test.ts).
  t = await startTestServer({ FOLIO_RATE_LIMIT_AUTH_FAILURES: 'off' });
  doc = (await raw(t, 'GET', '/v1/openapi.json')).body as Doc;
  orgId = (await t.client.orgs.createOrganization({ title: 'Matrix Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

/** Routes authorized by a signed URL or open to all, not by a bearer token. */
const PUBLIC = new Set([
  'getApiInformation',
  'uploadStorageFile',
  'downloadFile',
  'downloadRevisionPdf',
  'getPublishedOpenAPISpec',
  'listTemplates',
  // Authorized by the secret in its URL; any wrong one is a 404 (test/api/git-sync-auto.test.ts).
  'receiveGitWebhook',
  // Integrations: an integration's images, named by their digest (test/api/integrations.test.ts).
  'getIntegrationAsset',
]);

function routes() {
  const out: { method: string; path: string; op: Operation }[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

/** Fills path parameters: the real org id where `realOrg`, an id nobody has otherwise. */
function fill(path: string, realOrg: boolean): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === 'organizationId' && realOrg
      ? orgId
      : name === 'emailDomain' || name === 'domain'
        ? 'nowhere.test'
        : `unknown${name}`,
  );
}

describe('every route', () => {
  it('covers the foundation operations', () => {
    expect(routes().length).toBeGreaterThanOrEqual(40);
  });

  it('answers 401 without a token and with an unknown token', async () => {
    for (const { method, path, op } of routes()) {
      if (PUBLIC.has(op.operationId)) continue;
      const url = fill(path, true);
      expectError(await raw(t, method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : {} }), 401);
      expectError(
        await raw(t, method, url, {
          token: 'folio_not_a_real_token',
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        }),
        401,
      );
      expectError(
        await raw(t, method, url, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
        401,
      );
    }
  });

  it('answers 400 to a limit outside 1..1000 on every list', async () => {
    const lists = routes().filter(
      (r) => r.method === 'GET' && r.op.parameters?.some((p) => p.in === 'query' && p.name === 'limit'),
    );
    expect(lists.length).toBeGreaterThanOrEqual(9);
    for (const { path } of lists) {
      const url = fill(path, true);
      for (const limit of ['0', '1001', '-1', 'ten', '1.5'])
        expectError(await raw(t, 'GET', `${url}?limit=${limit}`, { token: t.adminToken }), 400);
    }
  });

  it('answers 404 for unknown ids (and 204 for DELETE of them)', async () => {
    for (const { method, path, op } of routes()) {
      if (!path.includes('{') || path.includes('{emailDomain}') || PUBLIC.has(op.operationId)) continue;
      // The instance admin's approval claims the domain it names in a real organization: nothing there is unknown.
      if (op.operationId === 'approveOrganizationDomain') continue;
      // Use a real org where the path has one, so that it is the *other* id that is unknown.
      for (const realOrg of path.includes('{organizationId}') && path.split('{').length > 2 ? [true, false] : [false]) {
        // PUT of an unknown slug in a real organization creates the spec (GitBook's create-or-update).
        if (realOrg && op.operationId === 'createOrUpdateOpenAPISpecBySlug') continue;
        const query = op.operationId.startsWith('search') ? '?query=anything' : '';
        const res = await raw(t, method, fill(path, realOrg) + query, {
          token: t.adminToken,
          body: method === 'GET' || method === 'DELETE' ? undefined : validBody(op.operationId),
        });
        if (method === 'DELETE') expect(res.status, `${method} ${path}`).toBe(204);
        else expectError(res, 404);
      }
    }
  });
});

/** A body that passes validation, so the unknown id (not the body) decides the answer. */
const computedSource = (props: object) => ({
  type: 'builtin:openapi',
  dependencies: { spec: { ref: { kind: 'openapi', spec: 'some-spec' } } },
  props,
});

function validBody(operationId: string): unknown {
  const bodies: Record<string, unknown> = {
    updateOrganizationById: { title: 'Renamed' },
    updateMemberInOrganizationById: { role: 'read' },
    updateTeamInOrganizationById: { title: 'T' },
    createOrganizationTeam: { title: 'T' },
    createOrganizationSAMLProvider: { label: 'IdP' },
    updateCollectionById: { title: 'C' },
    moveCollection: { parent: null },
    transferCollection: { organization: 'unknownorg' },
    updateSpaceById: { title: 'S' },
    moveSpace: { parent: null },
    transferSpace: { organization: 'unknownorg' },
    createSpace: { title: 'S' },
    createCollection: { title: 'C' },
    inviteUsersToOrganization: { emails: ['a@example.com'] },
    addOrganizationDomain: { domain: 'nowhere.test' },
    createOrganizationInvite: { role: 'read' },
    updateOrganizationInviteById: { role: 'read' },
    submitChangeRequestReview: { status: 'approved' },
    requestReviewersForChangeRequest: { users: [] },
    updateChangeRequestContent: { changes: [{ operation: 'delete_page', page: 'unknownpage' }] },
    applyTemplateToSpace: { id: 'changelog' },
    getComputedRevision: { source: computedSource({ models: false }), seed: 's' },
    getComputedDocument: { source: computedSource({ doc: 'models' }), seed: 's' },
    importGitRepository: { url: 'https://git.example/repo.git', ref: 'refs/heads/main' },
    exportToGitRepository: { url: 'https://git.example/repo.git', ref: 'refs/heads/main', commitMessage: 'm' },
    generateStorageUploadURL: { file: { name: 'a.txt', type: 'text/plain', size: 1 }, kind: 'organization_file' },
    updateSiteById: { title: 'Site' },
    updateSiteAdaptiveSchema: { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } },
    addSectionToSite: { spaceId: 'unknownspace' },
    updateSiteSectionById: { title: 'Section' },
    addSectionGroupToSite: { title: 'Group' },
    updateSiteSectionGroupById: { title: 'Group' },
    addSectionToSiteSectionGroup: { sectionId: 'unknownsection' },
    addSpaceToSite: { spaceId: 'unknownspace' },
    updateSiteSpaceById: { path: 'p' },
    inviteToSpace: { role: 'read', users: ['unknownuser'] },
    inviteToCollection: { role: 'read', users: ['unknownuser'] },
    updateUserPermissionInSpace: { role: 'read' },
    updateTeamPermissionInSpace: { role: 'read' },
    updateUserPermissionInCollection: { role: 'read' },
    updateTeamPermissionInCollection: { role: 'read' },
    createOpenAPISpec: { slug: 'spec', source: { text: 'openapi: 3.1.0' } },
    createOrUpdateOpenAPISpecBySlug: { source: { text: 'openapi: 3.1.0' } },
    updateOpenAPISpecBySlug: { visibility: 'public' },
    startImportRun: { source: { type: 'website', url: 'https://example.com/' }, target: { space: 'unknownspace' } },
    importContent: { source: { url: 'https://example.com/' } },
    importContentInChangeRequest: { source: { url: 'https://example.com/' } },
    createTranslation: { language: 'fr', source: { space: 'unknownspace', language: 'en' } },
    updateTranslation: { instructions: { object: 'document', data: {}, nodes: [] } },
    updateGlossaryEntries: { operations: [] },
    // Integration installations
    installIntegration: { organization: 'unknownorg' },
    installIntegrationOnSpace: { space: 'unknownspace' },
    installIntegrationOnSite: { siteId: 'unknownsite' },
    // Integrations
    publishIntegration: { organization: 'unknownorg', title: 'Tool', description: 'd', script: 's', scopes: [] },
    setIntegrationDevelopmentMode: { tunnelUrl: 'https://tunnel.example.com/' },
    renderIntegrationUIWithPost: {
      componentId: 'c',
      props: {},
      context: { type: 'document', spaceId: 'unknownspace' },
    },
    queueIntegrationTask: { task: {} },
  };
  if (operationId.startsWith('postComment')) return { body: { markdown: 'A comment' } };
  return bodies[operationId] ?? {};
}
