import { compressToEncodedURIComponent } from 'lz-string';
import type { OperationTable } from './authz-cases';
import { ask, type Check } from './authz-expect';
import { must, type World } from './authz-fixture';
import type { Params } from './authz-fresh';

/**
 * Integrations: the world's integration is private to the matrix organization, so that whoever is
 * not a member who may list integrations there (`list-integrations`: guests and outsiders) finds
 * nothing (404, 204 on DELETE), and of those who see it only the organization's admins
 * (`publish-integrations`) republish, unpublish, switch development mode and read events. What
 * public integrations answer outsiders (403 to their changes) is test/api/integrations.test.ts.
 *
 * Not in OPERATIONS (for authz-table.ts): listIntegrations answers every signed-in caller alike
 * (the public integrations; 401 without a token), like the ABOUT_THE_CALLER operations;
 * getIntegrationAsset serves images to anyone, token or not (PUBLIC_OPERATIONS).
 */
export const INTEGRATION_ANY_CALLER = ['listIntegrations'];
export const INTEGRATION_PUBLIC = ['getIntegrationAsset'];

const NAME = 'matrix-integration';
const EVENT = 'matrix-event';

const publishBody = (w: World) => ({
  organization: w.organizationId,
  title: 'Matrix integration',
  description: 'Only the matrix organization sees it',
  // Renders any block as an empty one (the render operations' allowed cells; cached after the first).
  script: RENDERING_SCRIPT,
  scopes: ['space:content:read'],
  visibility: 'private',
  blocks: [{ id: 'matrix-block', title: 'Matrix block' }],
});

const RENDERING_SCRIPT = `export default { async fetch() {
  return new Response(JSON.stringify({ type: 'element', element: { type: 'block', children: [] }, state: {}, props: {} }),
    { headers: { 'content-type': 'application/json' } });
} };`;

/** The render operations' request: a block on the world's space. */
const renderRequest = (w: World) => ({
  componentId: 'matrix-block',
  props: {},
  context: { type: 'document', spaceId: w.spaceId, editable: false, theme: 'light' },
});

const fixtures = new WeakMap<World, Promise<Params>>();

/** The world's private integration and one delivered event, made on first use. */
/** The world of the cell being run (the GET render's query names its space). */
let lastWorld: World | undefined;

function integration(w: World): Promise<Params> {
  lastWorld = w;
  let made = fixtures.get(w);
  if (!made) {
    made = (async () => {
      await must(w.t, 'POST', `/integrations/${NAME}`, publishBody(w));
      // Installed on the world's space: its blocks are listed and rendered there.
      const installation = await must<{ id: string }>(w.t, 'POST', `/integrations/${NAME}/installations`, {
        organization: w.organizationId,
      });
      await must(w.t, 'POST', `/integrations/${NAME}/installations/${installation.id}/spaces`, { space: w.spaceId });
      const now = new Date();
      await w.t.server.ctx.db.query(
        `INSERT INTO integration_events (id, integration_name, type, payload, status, created_at, updated_at)
         VALUES ($1, $2, 'installation_setup', $3, 'success', $4, $4)`,
        [
          EVENT,
          NAME,
          JSON.stringify({ eventId: EVENT, type: 'installation_setup', installationId: 'i', status: 'active' }),
          now,
        ],
      );
      return { integrationName: NAME, eventId: EVENT };
    })();
    fixtures.set(w, made);
  }
  return made;
}

let counter = 0;

/** A private integration of its own, unpublished by the call. */
async function ownIntegration(w: World): Promise<Params> {
  const integrationName = `matrix-gone-${++counter}`;
  await must(w.t, 'POST', `/integrations/${integrationName}`, publishBody(w));
  return { integrationName };
}

/** Seeing the private integration; a refusal is "no such integration" (a 404, or a DELETE's 204). */
const sees = (w: World, refusal = 404): Check => ask.organization(w.organizationId, 'list-integrations', { refusal });
const ownerAdmin = (w: World): Check => ask.organization(w.organizationId, 'publish-integrations');

export const INTEGRATION_OPERATIONS: OperationTable = {
  listOrganizationIntegrations: { checks: (w) => [ask.organization(w.organizationId, 'list-integrations')] },
  getIntegrationByName: { params: integration, checks: (w) => [sees(w)] },
  // Every allowed call republishes it as it was (a new version of the same manifest).
  publishIntegration: {
    params: integration,
    body: publishBody,
    checks: (w) => [ownerAdmin(w)],
  },
  unpublishIntegration: { params: ownIntegration, checks: (w) => [sees(w, 204), ownerAdmin(w)], deleted: 205 },
  setIntegrationDevelopmentMode: {
    params: integration,
    body: () => ({ tunnelUrl: 'https://tunnel.example.com/matrix' }),
    checks: (w) => [sees(w), ownerAdmin(w)],
  },
  disableIntegrationDevelopmentMode: {
    params: integration,
    checks: (w) => [sees(w, 204), ownerAdmin(w)],
    deleted: 205,
  },
  listIntegrationEvents: { params: integration, checks: (w) => [sees(w), ownerAdmin(w)] },
  getIntegrationEvent: { params: integration, checks: (w) => [sees(w), ownerAdmin(w)] },
  // The integration's own token queues its tasks (test/api/integration-events.test.ts); of people, its publishers.
  queueIntegrationTask: {
    params: integration,
    body: () => ({ task: { kind: 'matrix' } }),
    checks: (w) => [sees(w), ownerAdmin(w)],
  },
  // Blocks are shown to whoever sees the space they are on (the integration is installed there).
  listSpaceIntegrationsBlocks: { params: integration, checks: (_w, p) => [ask.space(p.spaceId!, 'view')] },
  renderIntegrationUIWithPost: {
    params: integration,
    body: renderRequest,
    checks: (_w, p) => [ask.space(p.spaceId!, 'view')],
  },
  renderIntegrationUIWithGet: {
    params: integration,
    // The query is read after `params` ran for the cell: it names the space of that world.
    get query() {
      return { request: compressToEncodedURIComponent(JSON.stringify(renderRequest(lastWorld!))) };
    },
    checks: (_w, p) => [ask.space(p.spaceId!, 'view')],
  },
};
