import { Type } from 'typebox';
import { PagingQuery } from '../../http/paging';
import { EntityId, Timestamp, Url } from '../../http/schemas';
import { IntegrationName, IntegrationParams, IntegrationSchema } from '../integrations/schemas';
import { SiteSchema } from '../sites/schemas';
import { SpaceSchema } from '../spaces/schemas';

export { IntegrationName, IntegrationParams };
export const InstallationParams = Type.Object({ integrationName: IntegrationName, installationId: EntityId });
export const SpaceInstallationParams = Type.Object({ ...InstallationParams.properties, spaceId: EntityId });
export const SiteInstallationParams = Type.Object({ ...InstallationParams.properties, siteId: EntityId });

/** GitBook's IntegrationInstallationStatus. */
export const InstallationStatus = Type.Unsafe<'active' | 'pending' | 'paused'>({
  type: 'string',
  enum: ['active', 'pending', 'paused'],
});

/** GitBook's IntegrationInstallationSpaceSelection / SiteSelection. */
export const Selection = Type.Unsafe<'all' | 'selected'>({ type: 'string', enum: ['all', 'selected'] });

/** GitBook's IntegrationInstallationExternalIds: at most 5, assigned by the integration. */
export const ExternalIds = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 5,
  description: 'External IDs assigned by the integration.',
});

/** A configuration: a free map, checked against the integration's `configurations` (configuration.ts). */
export const Configuration = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  maxProperties: 100,
  description: 'Configuration of the integration',
});

const ExternalIdQuery = Type.Optional(
  Type.String({ minLength: 1, maxLength: 200, description: 'External Id to filter by' }),
);
const ExtendedQuery = Type.Optional(
  Type.Boolean({
    default: false,
    description: 'If true, returns the space (site) object in each item; if false, its id',
  }),
);

export const ListInstallationsQuery = Type.Object({ ...PagingQuery, externalId: ExternalIdQuery });
export const ExtendedOnlyQuery = Type.Object({ extended: ExtendedQuery });
export const ListContentQuery = Type.Object({ ...PagingQuery, extended: ExtendedQuery });
export const ListIntegrationContentQuery = Type.Object({
  ...PagingQuery,
  externalId: ExternalIdQuery,
  extended: ExtendedQuery,
});

/** GitBook's OrganizationTarget (installIntegration's body). */
export const InstallBody = Type.Object({ organization: EntityId }, { additionalProperties: false });
export const InstallOnSpaceBody = Type.Object({ space: EntityId }, { additionalProperties: false });
export const InstallOnSiteBody = Type.Object({ siteId: EntityId }, { additionalProperties: false });

/** GitBook's UpdateIntegrationInstallation. */
export const UpdateInstallationBody = Type.Object(
  {
    externalIds: Type.Optional(ExternalIds),
    configuration: Type.Optional(Configuration),
    space_selection: Type.Optional(Selection),
    site_selection: Type.Optional(Selection),
  },
  { additionalProperties: false },
);

/** GitBook's UpdateIntegrationSpaceInstallation / UpdateIntegrationSiteInstallation. */
export const UpdateContentInstallationBody = Type.Object(
  { externalIds: Type.Optional(ExternalIds), configuration: Type.Optional(Configuration) },
  { additionalProperties: false },
);

/** GitBook's IntegrationInstallation. */
export const InstallationSchema = Type.Object({
  id: Type.String(),
  status: InstallationStatus,
  space_selection: Selection,
  site_selection: Selection,
  spaces: Type.Number({ description: 'Count of spaces the installation is on' }),
  configuration: Configuration,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Url, app: Url, publicEndpoint: Url, publicContentEndpoint: Url }),
  externalIds: ExternalIds,
  target: Type.Object({ organization: Type.String() }),
});

/** GitBook's IntegrationContentInstallationBase. */
const contentInstallationBase = {
  integration: Type.String(),
  installation: Type.String(),
  status: InstallationStatus,
  configuration: Configuration,
  externalIds: ExternalIds,
  urls: Type.Object({ location: Url, publicEndpoint: Url, publicContentEndpoint: Url }),
};

/** GitBook's IntegrationSpaceInstallation: `space` is its id, or the Space with `extended`. */
export const SpaceInstallationSchema = Type.Object({
  ...contentInstallationBase,
  space: Type.Union([Type.String(), SpaceSchema]),
});

/** GitBook's IntegrationSiteInstallation: `site` is its id, or the Site with `extended`. */
export const SiteInstallationSchema = Type.Object({
  ...contentInstallationBase,
  site: Type.Union([Type.String(), SiteSchema]),
});

/** getOrganizationIntegrationStatus's answer. */
export const IntegrationStatusSchema = Type.Object({ status: InstallationStatus });

/** GitBook's `search` of integration lists: part of the name or title. */
export const SearchQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or title' })),
});

/** listOrganizationIntegrationsStatus's query. */
export const StatusListQuery = Type.Object({
  ...PagingQuery,
  target: Type.Optional(
    Type.Unsafe<'organization' | 'space' | 'site'>({
      type: 'string',
      enum: ['organization', 'space', 'site'],
      default: 'organization',
      description: 'Installed in the organization (default), on its spaces, or on its sites',
    }),
  ),
  space: Type.Optional(EntityId),
  site: Type.Optional(EntityId),
});

/** GitBook's InstalledIntegration. */
export const InstalledIntegrationSchema = Type.Object({
  status: InstallationStatus,
  integration: IntegrationSchema,
  target: Type.Union([
    Type.Object({ type: Type.Literal('organization'), organizationId: Type.String() }),
    Type.Object({ type: Type.Literal('space'), spaceId: Type.String() }),
    Type.Object({ type: Type.Literal('site'), siteId: Type.String() }),
  ]),
  installation: Type.Optional(
    Type.Object(
      { id: Type.String() },
      { description: 'Folio: the installation, shown to those who manage installations in the organization' },
    ),
  ),
});
