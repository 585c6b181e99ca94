import { useEffect } from 'preact/hooks';
import { useApp } from '../screens/context';
import { useResource } from '../ui/kit/hooks';
import { openGitSyncDialog } from './git-sync-dialog';
import { gitStores } from './git-stores';

/** The bits of GitBook's Space the action needs (the app's Space type keeps fewer fields). */
interface SpaceAccess {
  permissions?: { triggerGitSync?: boolean };
}

/**
 * "Git sync…" for the open space, or undefined when there is nothing for the caller there. Those
 * who may sync it (`permissions.triggerGitSync`, from the space store already loaded for the title)
 * always have it; others have it, read-only, only when the space has a Git sync (one `git/info`
 * read, shared with the panel through the Git sync store).
 */
export function useGitSyncAction(spaceId: string): (() => void) | undefined {
  const { stores, session } = useApp();
  const { state } = useResource(stores.space, spaceId);
  const space = 'data' in state ? (state.data as SpaceAccess | undefined) : undefined;
  const known = space?.permissions !== undefined;
  const manage = space?.permissions?.triggerGitSync === true;
  const info = gitStores(session.api).info;
  const lookup = Boolean(spaceId) && known && !manage;

  useEffect(() => {
    if (!lookup) return;
    const release = info.retain(spaceId);
    info.ensure(spaceId);
    return release;
  }, [info, spaceId, lookup]);

  // Read in render, so the header follows the store (a sync removed in the panel hides the item).
  const synced = info.state(spaceId).value;
  if (!spaceId || !known) return undefined;
  if (!manage && !('data' in synced && synced.data)) return undefined;
  return () => void openGitSyncDialog(session.api, spaceId, manage);
}
