import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { findInstallationInOrganization } from '../../store/integration-installations';
import { requireOrgPermission } from '../authorize';
import { configurationSchemaOf, statusOf } from './configuration';
import { requireIntegration, visibilityOf } from './integration-rules';

/**
 * Whether an integration is installed in an organization, and how: for its members (the
 * organization's `list-integrations`, as its integrations list), without the configuration.
 */
export async function getOrganizationIntegrationStatus(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  name: string,
) {
  await requireOrgPermission(ctx.db, p, organizationId, 'list-integrations');
  const integration = await requireIntegration(ctx, name);
  const installation = await findInstallationInOrganization(ctx.db, name, organizationId);
  // A private integration of another organization stays as unknown as it is to that organization's non-members.
  if (!installation)
    throw notFound(
      visibilityOf(integration.manifest) === 'private' && integration.organization_id !== organizationId
        ? 'Integration'
        : 'Installation',
    );
  const schema = configurationSchemaOf(integration.manifest, 'account');
  return { status: statusOf(schema, installation.configuration, installation.status) };
}
