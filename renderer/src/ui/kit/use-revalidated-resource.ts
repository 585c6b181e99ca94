import { useEffect } from 'preact/hooks';
import type { ResourceState, ResourceStore } from '../../stores/resource';

/**
 * Like `useResource`, but what the store already holds is re-read from the server when the
 * component mounts (shown meanwhile): for data other people change (a change request, its
 * reviews), where a copy cached by an earlier visit may be out of date.
 */
export function useRevalidatedResource<K, T>(
  store: ResourceStore<K, T>,
  key: K,
): { state: ResourceState<T>; retry: () => void } {
  const cell = store.state(key);
  useEffect(() => {
    const release = store.retain(key);
    if (store.peek(key) !== undefined) store.invalidate(key);
    else store.ensure(key);
    return release;
    // The key's string form is what identifies it; a new tuple of the same ids is the same key.
  }, [store, JSON.stringify(key)]);
  return { state: cell.value, retry: () => store.invalidate(key) };
}
