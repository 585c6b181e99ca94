import type { OrganizationAction } from '../../sync-server/policy/organization';
import type { OperationTable } from './authz-cases';
import { ask } from './authz-expect';
import { must, type World } from './authz-fixture';
import type { Params } from './authz-fresh';

/**
 * OpenAPI specs: members who see the organization read them (`view`, guests included, as for the
 * organization's other listings), and `create-openapi-spec` (the "create" role or admin) creates,
 * updates, publishes and deletes them. The rows share one processed spec per world, made on first
 * use; a PUT writes back its own text (an unchanged source makes no new version).
 */

const SPEC_TEXT = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Matrix spec', version: '1.0.0' },
  paths: { '/ping': { get: { responses: { '200': { description: 'pong' } } } } },
});

const inOrg = (action: OrganizationAction) => (_w: unknown, p: Record<string, string>) => [
  ask.organization(p.organizationId!, action),
];

const viewSpace = (_w: unknown, p: Record<string, string>) => [ask.space(p.spaceId!, 'view')];
const computed = (props: object) => ({
  type: 'builtin:openapi',
  dependencies: { spec: { ref: { kind: 'openapi', spec: 'matrix-spec' } } },
  props,
});

const specs = new WeakMap<World, Promise<Params>>();
let counter = 0;

/** The world's spec, processed (so it has a version): its slug and that version's id. */
function matrixSpec(w: World): Promise<Params> {
  let made = specs.get(w);
  if (!made) {
    made = (async () => {
      const specSlug = 'matrix-spec';
      await must(w.t, 'PUT', `/orgs/${w.organizationId}/openapi/${specSlug}`, { source: { text: SPEC_TEXT } });
      await w.t.server.ctx.jobRunner.drain();
      const spec = await must<{ lastVersion?: string }>(w.t, 'GET', `/orgs/${w.organizationId}/openapi/${specSlug}`);
      if (!spec.lastVersion) throw new Error(`matrix: the spec was not processed: ${JSON.stringify(spec)}`);
      return { specSlug, versionId: spec.lastVersion };
    })();
    specs.set(w, made);
  }
  return made;
}

/** A spec already deleted: an allowed DELETE answers 204 ("did not exist"), a refused one still 403. */
async function goneSpec(w: World): Promise<Params> {
  const specSlug = `matrix-gone-${++counter}`;
  await must(w.t, 'POST', `/orgs/${w.organizationId}/openapi`, { slug: specSlug, source: { text: SPEC_TEXT } });
  await must(w.t, 'DELETE', `/orgs/${w.organizationId}/openapi/${specSlug}`);
  return { specSlug };
}

export const OPENAPI_OPERATIONS: OperationTable = {
  listOpenAPISpecs: { checks: inOrg('view') },
  createOpenAPISpec: {
    body: () => ({ slug: `matrix-created-${++counter}`, source: { text: SPEC_TEXT } }),
    checks: inOrg('create-openapi-spec'),
  },
  getOpenAPISpecBySlug: { params: matrixSpec, checks: inOrg('view') },
  createOrUpdateOpenAPISpecBySlug: {
    params: matrixSpec,
    body: () => ({ source: { text: SPEC_TEXT } }),
    checks: inOrg('create-openapi-spec'),
  },
  updateOpenAPISpecBySlug: {
    params: matrixSpec,
    body: () => ({ visibility: 'private' }),
    checks: inOrg('create-openapi-spec'),
  },
  deleteOpenAPISpecBySlug: { params: goneSpec, checks: inOrg('create-openapi-spec') },
  listOpenAPISpecVersions: { params: matrixSpec, checks: inOrg('view') },
  getLatestOpenAPISpecVersion: { params: matrixSpec, checks: inOrg('view') },
  getLatestOpenAPISpecVersionContent: { params: matrixSpec, checks: inOrg('view') },
  getLatestOpenAPISpecVersionContentRaw: { params: matrixSpec, checks: inOrg('view') },
  getOpenAPISpecVersionById: { params: matrixSpec, checks: inOrg('view') },
  getOpenAPISpecVersionContentById: { params: matrixSpec, checks: inOrg('view') },
  // What a computed page of the fixture space would generate from the world's spec: a read of the space.
  getComputedRevision: {
    params: matrixSpec,
    body: () => ({ source: computed({ models: true }), seed: 'matrix' }),
    checks: viewSpace,
  },
  getComputedDocument: {
    params: matrixSpec,
    body: () => ({ source: computed({ doc: 'models' }), seed: 'matrix' }),
    checks: viewSpace,
  },
};
