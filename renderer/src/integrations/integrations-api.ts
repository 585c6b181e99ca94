import { ApiError, listAll, type ApiClient } from '../api/client';
import type { ConfigurationSchema } from './configuration-form-model';

/**
 * Integrations as the app calls them: GitBook's Integrations operations (the catalog, an
 * integration, its installation in an organization and on spaces and sites, its events), typed
 * with the fields the screens read.
 */

export type InstallationStatus = 'active' | 'pending' | 'paused';
export type ContentKind = 'space' | 'site';

/** GitBook's Integration. */
export interface Integration {
  object: 'integration';
  name: string;
  version: number;
  title: string;
  description: string;
  summary?: string;
  target: 'all' | 'site' | 'space' | 'organization';
  visibility: 'public' | 'private' | 'unlisted';
  scopes: string[];
  categories: string[];
  configurations?: { account?: ConfigurationSchema; space?: ConfigurationSchema; site?: ConfigurationSchema };
  externalLinks?: { url: string; label: string }[];
  previewImages?: string[];
  owner: { id: string; title: string };
  urls: { location: string; icon?: string; app: string };
  permissions: { admin?: boolean };
}

/** GitBook's IntegrationInstallation (in an organization). */
export interface Installation {
  id: string;
  status: InstallationStatus;
  space_selection: 'all' | 'selected';
  site_selection: 'all' | 'selected';
  spaces: number;
  configuration: Record<string, unknown>;
  target: { organization: string };
}

/** GitBook's IntegrationSpaceInstallation / IntegrationSiteInstallation. */
export interface ContentInstallation {
  integration: string;
  installation: string;
  status: InstallationStatus;
  configuration: Record<string, unknown>;
  space?: string | { id: string; title?: string };
  site?: string | { id: string; title?: string };
}

/** GitBook's IntegrationEvent. */
export interface IntegrationEvent {
  id: string;
  integrationId: string;
  installationId?: string;
  createdAt: string;
  payload: { type?: string } & Record<string, unknown>;
  status: 'success' | 'failed';
}

/** One line of an event's trace. */
export interface EventLog {
  level?: 'debug' | 'info' | 'warn' | 'error';
  message?: string;
  timestamp?: string;
}

/** The catalog's filters. */
export interface CatalogQuery {
  search?: string;
  category?: string;
}

const path = (name: string) => `/integrations/${encodeURIComponent(name)}`;

/** The organization's integrations: public ones, its own, and those installed there. */
export function listOrganizationIntegrations(api: ApiClient, orgId: string, query: CatalogQuery = {}) {
  return listAll<Integration>(api, `/orgs/${orgId}/integrations`, { ...query });
}

/** The public catalog. */
export function listIntegrations(api: ApiClient, query: CatalogQuery = {}) {
  return listAll<Integration>(api, '/integrations', { ...query });
}

export function getIntegration(api: ApiClient, name: string) {
  return api.request<Integration>(path(name));
}

/** The integrations installed in an organization (GitBook's InstalledIntegration: status and integration). */
export async function installedInOrganization(api: ApiClient, orgId: string) {
  return listAll<{ status: InstallationStatus; integration: Integration; installation?: { id: string } }>(
    api,
    `/orgs/${orgId}/integrations/installations-status`,
    { target: 'organization' },
  );
}

/** Installation ids this app created, by server, organization and integration: see findInstallation. */
const remembered = (api: ApiClient, orgId: string, name: string) =>
  `folio.integrationInstallation:${api.serverUrl}:${orgId}:${name}`;

/**
 * The organization's installation of an integration, or undefined when it is not installed there.
 * GitBook's API hands its id only to the integration's publishers (listIntegrationInstallations)
 * and to whoever installs it; the app asks the list when the caller may read it, else reads the id it
 * kept when it installed it (an installation made elsewhere by someone else is then not found).
 */
export async function findInstallation(api: ApiClient, orgId: string, name: string): Promise<Installation | undefined> {
  let status: InstallationStatus;
  try {
    status = (
      await api.request<{ status: InstallationStatus }>(`/orgs/${orgId}/integrations/${name}/installation_status`)
    ).status;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
  try {
    const all = await listAll<Installation>(api, `${path(name)}/installations`);
    const mine = all.find((i) => i.target.organization === orgId);
    if (mine) return mine;
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 404)) throw err;
  }
  const id = globalThis.localStorage?.getItem(remembered(api, orgId, name));
  if (id) {
    try {
      return await api.request<Installation>(`${path(name)}/installations/${id}`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
    }
  }
  // Installed, but its id is not known to this caller: the status alone.
  return { id: '', status } as Installation;
}

export async function installIntegration(api: ApiClient, orgId: string, name: string) {
  const installation = await api.request<Installation>(`${path(name)}/installations`, {
    method: 'POST',
    body: { organization: orgId },
  });
  globalThis.localStorage?.setItem(remembered(api, orgId, name), installation.id);
  return installation;
}

export function updateInstallation(
  api: ApiClient,
  name: string,
  id: string,
  body: { configuration?: Record<string, unknown>; space_selection?: string; site_selection?: string },
) {
  return api.request<Installation>(`${path(name)}/installations/${id}`, { method: 'PATCH', body });
}

export async function uninstallIntegration(api: ApiClient, orgId: string, name: string, id: string) {
  await api.request<void>(`${path(name)}/installations/${id}`, { method: 'DELETE' });
  globalThis.localStorage?.removeItem(remembered(api, orgId, name));
}

const contentPath = (name: string, installationId: string, kind: ContentKind) =>
  `${path(name)}/installations/${installationId}/${kind}s`;

/** The spaces (sites) of an installation. */
export function listContentInstallations(api: ApiClient, name: string, installationId: string, kind: ContentKind) {
  return listAll<ContentInstallation>(api, contentPath(name, installationId, kind));
}

export function installOnContent(api: ApiClient, name: string, installationId: string, kind: ContentKind, id: string) {
  return api.request<ContentInstallation>(contentPath(name, installationId, kind), {
    method: 'POST',
    body: kind === 'space' ? { space: id } : { siteId: id },
  });
}

export function updateContentInstallation(
  api: ApiClient,
  name: string,
  installationId: string,
  kind: ContentKind,
  id: string,
  configuration: Record<string, unknown>,
) {
  return api.request<ContentInstallation>(`${contentPath(name, installationId, kind)}/${id}`, {
    method: 'PATCH',
    body: { configuration },
  });
}

export function uninstallFromContent(
  api: ApiClient,
  name: string,
  installationId: string,
  kind: ContentKind,
  id: string,
) {
  return api.request<void>(`${contentPath(name, installationId, kind)}/${id}`, { method: 'DELETE' });
}

/** The integrations installed on a space, or on a site. */
export function listInstalledOn(api: ApiClient, target: { space: string } | { orgId: string; site: string }) {
  return listAll<Integration>(
    api,
    'space' in target
      ? `/spaces/${target.space}/integrations`
      : `/orgs/${target.orgId}/sites/${target.site}/integrations`,
  );
}

/** The integration's events, newest first (for the admins of the organization publishing it). */
export function listEvents(api: ApiClient, name: string) {
  return api.request<{ items: IntegrationEvent[] }>(`${path(name)}/events`, { query: { limit: 100 } });
}

export function getEvent(api: ApiClient, name: string, eventId: string) {
  return api.request<{ event: IntegrationEvent; trace: { logs: EventLog[] } }>(`${path(name)}/events/${eventId}`);
}

/** One space's (site's) installation, with its configuration. */
export function getContentInstallation(
  api: ApiClient,
  name: string,
  installationId: string,
  kind: ContentKind,
  id: string,
) {
  return api.request<ContentInstallation>(`${contentPath(name, installationId, kind)}/${id}`);
}
