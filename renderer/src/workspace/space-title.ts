import { useEffect, useState } from 'preact/hooks';
import type { Space } from '../api/types';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { recentSpaces, rememberSpace } from '../session';
import { promptDialog } from '../ui/kit/dialog';
import { useResource } from '../ui/kit/hooks';
import { toast } from '../ui/toast';

/**
 * The open space's title, from the account's space store (one request, shared with the upload
 * that needs the space's organization, and updated by any rename). Offline, the title the
 * recent-spaces list kept from the last time it was opened online.
 */
export function useSpaceTitle(spaceId: string): { space: Space | undefined; title: string | undefined } {
  const { stores, session } = useApp();
  const { state } = useResource(stores.space, spaceId);
  const space = 'data' in state ? state.data : undefined;
  const [offline, setOffline] = useState<string>();
  const title = space ? space.title || 'Untitled space' : undefined;
  useEffect(() => {
    if (title) void rememberSpace(session, spaceId, title).catch(() => undefined);
  }, [title]);
  useEffect(() => {
    if (state.status !== 'error' || space) return;
    let live = true;
    recentSpaces(session).then(
      (recent) => live && setOffline(recent.find((r) => r.spaceId === spaceId)?.title ?? 'Space (offline)'),
      () => live && setOffline('Space (offline)'),
    );
    return () => {
      live = false;
    };
  }, [state.status]);
  return { space, title: title ?? offline };
}

/** Asks for a new title and renames the space: the top bar, the tree and the window title follow. */
export function useRenameSpace(spaceId: string): () => Promise<void> {
  const { stores } = useApp();
  return async () => {
    const current = stores.space.peek(spaceId)?.title ?? '';
    const title = await promptDialog('Rename space', current, 'Rename');
    if (!title || title === current) return;
    try {
      await stores.renameSpace(spaceId, title);
    } catch (err) {
      toast(`Could not rename the space: ${describeError(err)}`, 'error');
    }
  };
}
