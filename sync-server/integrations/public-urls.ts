/**
 * Where an integration's own HTTP handler answers (GitBook's `urls.publicEndpoint` of an
 * Integration and of its installations): outside /v1, with no Folio authentication — the
 * integration checks its callers itself — as GitBook serves them on a host of their own. A request
 * to one (any method, any subpath) becomes a `fetch` event (api/integration-endpoints/).
 *
 *   <root>/integrations/{name}/integration
 *   <root>/integrations/{name}/installations/{installationId}
 *   <root>/integrations/{name}/installations/{installationId}/spaces/{spaceId}
 *   <root>/integrations/{name}/installations/{installationId}/sites/{siteId}
 *
 * Integration names are `[a-zA-Z0-9-_.]` and ids alphanumeric: nothing to escape.
 */

export const PUBLIC_ENDPOINTS_PREFIX = '/integrations';

export const integrationEndpointPath = (name: string) => `${PUBLIC_ENDPOINTS_PREFIX}/${name}/integration`;

export const installationEndpointPath = (name: string, installationId: string) =>
  `${PUBLIC_ENDPOINTS_PREFIX}/${name}/installations/${installationId}`;

export const contentEndpointPath = (name: string, installationId: string, kind: 'space' | 'site', targetId: string) =>
  `${installationEndpointPath(name, installationId)}/${kind}s/${targetId}`;
