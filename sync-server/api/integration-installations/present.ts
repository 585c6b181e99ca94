import type { AppContext } from '../../context';
import type { ContentInstallationRow, ContentKind, InstallationRow } from '../../store/integration-installations';
import type { IntegrationRow } from '../../store/integrations';
import { configurationSchemaOf, defaultsOf, statusOf } from './configuration';
import { contentEndpointPath, installationEndpointPath } from '../../integrations/public-urls';

/**
 * Installation rows -> GitBook's IntegrationInstallation, IntegrationSpaceInstallation and
 * IntegrationSiteInstallation. Statuses are worked out from the integration's manifest as it is
 * now (a newly required property makes an installation `pending` until it is configured).
 */

/** The API paths of installations are also their public endpoints' paths, outside /v1. */
const installationPath = installationEndpointPath;

const contentPath = (
  kind: ContentKind,
  row: Pick<ContentInstallationRow, 'integration_name' | 'installation_id' | 'target_id'>,
) => contentEndpointPath(row.integration_name, row.installation_id, kind, row.target_id);

/**
 * Where the integration's script answers HTTP for an installation (integrations/public-urls.ts):
 * GitBook's paths, outside /v1 as GitBook serves them on a host of their own.
 */
const publicEndpoint = (ctx: AppContext, path: string) => `${ctx.urls.root}${path}`;

export const installationLocation = (ctx: AppContext, integrationName: string, installationId: string) =>
  ctx.urls.api(installationPath(integrationName, installationId));

/** GitBook's IntegrationInstallation. */
export function presentInstallation(ctx: AppContext, integration: IntegrationRow, row: InstallationRow) {
  const path = installationPath(row.integration_name, row.id);
  const endpoint = publicEndpoint(ctx, path);
  return {
    id: row.id,
    status: statusOf(configurationSchemaOf(integration.manifest, 'account'), row.configuration, row.status),
    space_selection: row.space_selection,
    site_selection: row.site_selection,
    spaces: row.spaces,
    configuration: row.configuration,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    urls: {
      location: ctx.urls.api(path),
      app: ctx.urls.app(`/o/${row.organization_id}/integrations/${row.integration_name}`),
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    },
    externalIds: row.external_ids,
    target: { organization: row.organization_id },
  };
}

/** The configuration in effect: the row's, or the defaults for a space (site) of an `all` installation. */
export function configurationOf(integration: IntegrationRow, kind: ContentKind, row: ContentInstallationRow) {
  return row.configuration ?? defaultsOf(configurationSchemaOf(integration.manifest, kind));
}

/** The base of GitBook's IntegrationSpaceInstallation and IntegrationSiteInstallation. */
function presentContentBase(
  ctx: AppContext,
  integration: IntegrationRow,
  kind: ContentKind,
  row: ContentInstallationRow,
) {
  const path = contentPath(kind, row);
  const endpoint = publicEndpoint(ctx, path);
  const configuration = configurationOf(integration, kind, row);
  return {
    integration: row.integration_name,
    installation: row.installation_id,
    status: statusOf(configurationSchemaOf(integration.manifest, kind), configuration, row.status),
    configuration,
    externalIds: row.external_ids ?? [],
    urls: { location: ctx.urls.api(path), publicEndpoint: endpoint, publicContentEndpoint: endpoint },
  };
}

/** GitBook's IntegrationSpaceInstallation; `space` is the Space object when given (`extended`), else its id. */
export function presentSpaceInstallation<S extends object>(
  ctx: AppContext,
  integration: IntegrationRow,
  row: ContentInstallationRow,
  space?: S,
) {
  return { ...presentContentBase(ctx, integration, 'space', row), space: space ?? row.target_id };
}

/** GitBook's IntegrationSiteInstallation; `site` is the Site object when given (`extended`), else its id. */
export function presentSiteInstallation<S extends object>(
  ctx: AppContext,
  integration: IntegrationRow,
  row: ContentInstallationRow,
  site?: S,
) {
  return { ...presentContentBase(ctx, integration, 'site', row), site: site ?? row.target_id };
}
