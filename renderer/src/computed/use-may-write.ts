import { useApp } from '../screens/context';
import { useResource } from '../ui/kit/hooks';

/** The bits of GitBook's Space this needs (the app's Space type keeps fewer fields). */
interface SpaceAccess {
  permissions?: { edit?: boolean };
}

/**
 * Whether the caller may change the space's pages, for controls a reader must not be offered. The
 * sync socket alone cannot say it: the server lets a reader stay connected and refuses only a
 * write, so `editable` is true until they try. The space's `permissions.edit` (from the space
 * store, loaded for the title already) says it up front; while it is unknown (offline, loading)
 * the socket's answer stands.
 */
export function useMayWrite(spaceId: string, editable: boolean): boolean {
  const { stores } = useApp();
  const { state } = useResource(stores.space, spaceId);
  const space = 'data' in state ? (state.data as SpaceAccess | undefined) : undefined;
  return editable && space?.permissions?.edit !== false;
}
