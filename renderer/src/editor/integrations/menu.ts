import type { EditorState } from '@codemirror/state';
import { integrationTag } from '../../../../shared/markdown/integration-block';
import { CURSOR as C } from '../authoring/commands';
import type { AuthoringItem } from '../authoring/blocks';
import { integrationBlocksFacet, type SpaceIntegrationBlocks } from './catalog';

/**
 * The `/` menu's "Integrations" group: one item per block of each integration installed on the
 * space. Choosing one inserts the block's tag (`{% @integration/block %}`, as GitBook's Git Sync
 * writes it) on a line of its own, the cursor on the paragraph after it so the preview draws it.
 */

/** The menu group integration items are listed under. */
export const INTEGRATIONS_SECTION = 'Integrations';

/** The items of the installed integrations' blocks. */
export function integrationMenuItems(installed: readonly SpaceIntegrationBlocks[]): AuthoringItem[] {
  return installed.flatMap((integration) =>
    integration.blocks.map((block): AuthoringItem => ({
      id: `integration-${integration.name}-${block.id}`,
      label: block.title || block.id,
      detail: block.description || `From ${integration.name}`,
      icon: 'puzzle',
      keywords: `integration ${integration.name} ${block.id}`,
      template: `${integrationTag({ integration: integration.name, block: block.id, props: {} })}\n\n${C}${C}`,
      section: INTEGRATIONS_SECTION,
    })),
  );
}

/** The integration items of the editor's catalog (none while it loads, or without one). */
export function integrationItemsOf(state: EditorState): AuthoringItem[] {
  const installed = state.facet(integrationBlocksFacet)?.installed();
  return installed ? integrationMenuItems(installed) : [];
}
