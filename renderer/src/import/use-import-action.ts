import { useResource } from '../ui/kit/hooks';
import { useApp } from '../screens/context';
import { openImportDialog } from './import-dialog';

/** The bits of GitBook's Space the action needs (the app's Space type keeps fewer fields). */
interface SpaceAccess {
  organization?: string;
  permissions?: { edit?: boolean };
}

/**
 * "Import…" for the open space, or undefined when the caller may not edit it (a reader sees no such
 * action). The space is the open one, its organization and permissions from the shared
 * space store (already loaded for the title, so no extra request).
 */
export function useImportAction(spaceId: string, changeRequestId: string | undefined): (() => void) | undefined {
  const { stores, session } = useApp();
  const { state } = useResource(stores.space, spaceId);
  const space = 'data' in state ? (state.data as SpaceAccess) : undefined;
  if (!spaceId || !space?.organization || !space.permissions?.edit) return undefined;
  const organizationId = space.organization;
  return () => void openImportDialog(session.api, { organizationId, spaceId, changeRequestId });
}
