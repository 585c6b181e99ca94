import type { Queryable } from '../store/db';
import { findInstallationRow, installationsOnContent } from '../store/integration-installations';
import { findIntegration } from '../store/integrations';
import type { BlockRenderer, BlockRenderResult } from './block-render';
import type { EnvironmentPresenters } from './types';

/**
 * A block of an integration as a page shows it (the published site calls this; the editor calls
 * the render operation): the integration's installation on the space, active, renders the
 * component read-only (`editable: false`). The caller has already decided the reader may see the
 * page; what the script answers is ContentKit JSON to draw, never HTML to trust.
 */
export async function renderIntegrationBlock(
  deps: { db: Queryable; present: EnvironmentPresenters; blocks: BlockRenderer },
  block: {
    integrationName: string;
    spaceId: string;
    componentId: string;
    props: Record<string, unknown>;
    theme?: 'light' | 'dark';
  },
  signal?: AbortSignal,
): Promise<BlockRenderResult> {
  const integration = await findIntegration(deps.db, block.integrationName);
  const onSpace = (await installationsOnContent(deps.db, 'space', block.spaceId)).find(
    (r) => r.integration_name === block.integrationName && !r.trashed,
  );
  const installation =
    integration && onSpace && (await findInstallationRow(deps.db, integration.name, onSpace.installation_id));
  if (!integration || !onSpace || !installation)
    return {
      ok: false,
      status: 404,
      message: `The integration "${block.integrationName}" is not installed on this space`,
    };
  if (
    deps.present.installation(integration, installation).status !== 'active' ||
    deps.present.spaceInstallation(integration, onSpace).status !== 'active'
  )
    return {
      ok: false,
      status: 409,
      message: `The integration "${block.integrationName}" is not active on this space`,
    };
  return deps.blocks.render(
    {
      integrationName: integration.name,
      integrationVersion: integration.version,
      installationId: installation.id,
      spaceId: block.spaceId,
      componentId: block.componentId,
      props: block.props,
      context: { type: 'document', spaceId: block.spaceId, editable: false, theme: block.theme ?? 'light' },
    },
    signal,
  );
}
