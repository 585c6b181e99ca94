import { useApp } from '../screens/context';
import { useResource } from '../ui/kit/hooks';
import { openSpaceIntegrationsDialog } from './space-integrations-dialog';

/** The bits of GitBook's Space the action reads (the app's Space type keeps fewer fields). */
interface SpaceForIntegrations {
  id: string;
  title?: string;
  organization?: string;
  permissions?: { installIntegration?: boolean };
}

/**
 * "Integrations…" for the open space (undefined until the space, and so its organization, is
 * known). Its admins (`permissions.installIntegration`) install and configure there; anyone who
 * sees the space sees what runs on it.
 */
export function useIntegrationsAction(spaceId: string): (() => void) | undefined {
  const app = useApp();
  const { state } = useResource(app.stores.space, spaceId);
  const space = 'data' in state ? (state.data as SpaceForIntegrations | undefined) : undefined;
  const orgId = space?.organization;
  if (!space || !orgId) return undefined;
  return () =>
    void openSpaceIntegrationsDialog(app, {
      orgId,
      spaceId,
      ...(space.title ? { title: space.title } : {}),
      manage: space.permissions?.installIntegration === true,
    });
}
