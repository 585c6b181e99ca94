import { useEffect, useRef, useState } from 'preact/hooks';
import type { ResourceState } from '../../stores/resource';

/** One page of a paged list, as the REST API answers it. */
export interface Page<T> {
  items: T[];
  next?: { page: string };
}

/** A paged list's state: the items so far, and how the next page is doing. */
export interface PagedList<T> {
  /** The first page's state (its data grows as more pages arrive). */
  state: ResourceState<T[]>;
  /** Whether the server has more. */
  hasMore: boolean;
  /** Loads the next page (no-op while one is loading or when there is none). */
  loadMore: () => void;
  /** The next page's loading state: idle, loading, or failed (retry with loadMore). */
  more: { status: 'idle' | 'loading' } | { status: 'error'; error: unknown };
  /** Reloads from the first page, keeping what is shown until the answer comes. */
  reload: () => void;
}

/**
 * A list read page by page ("Load more"): reloaded from the first page when `deps` change (what
 * was shown for other deps is dropped) or on `reload()` (what is shown stays until the answer).
 * Answers for older deps or older reloads are dropped.
 */
export function usePaged<T>(loadPage: (cursor: string | undefined) => Promise<Page<T>>, deps: unknown[]): PagedList<T> {
  const [state, setState] = useState<ResourceState<T[]>>({ status: 'loading' });
  const [cursor, setCursor] = useState<string>();
  const [more, setMore] = useState<PagedList<T>['more']>({ status: 'idle' });
  const [attempt, setAttempt] = useState(0);
  /** Bumped per load, so a late answer of an older one is dropped. */
  const generation = useRef(0);
  const depsKey = JSON.stringify(deps);
  const shownFor = useRef<string>();
  const latestLoad = useRef(loadPage);
  latestLoad.current = loadPage;

  useEffect(() => {
    const gen = ++generation.current;
    const sameList = shownFor.current === depsKey;
    shownFor.current = depsKey;
    setState((old) =>
      sameList && 'data' in old && old.data !== undefined
        ? { status: 'loading', data: old.data }
        : { status: 'loading' },
    );
    setMore({ status: 'idle' });
    latestLoad.current(undefined).then(
      (page) => {
        if (gen !== generation.current) return;
        setState({ status: 'ready', data: page.items });
        setCursor(page.next?.page);
      },
      (error: unknown) => gen === generation.current && setState({ status: 'error', error }),
    );
    return () => {
      generation.current++;
    };
  }, [depsKey, attempt]);

  const loadMore = () => {
    if (!cursor || more.status === 'loading') return;
    const gen = generation.current;
    setMore({ status: 'loading' });
    latestLoad.current(cursor).then(
      (page) => {
        if (gen !== generation.current) return;
        setState((old) => ({ status: 'ready', data: [...('data' in old && old.data ? old.data : []), ...page.items] }));
        setCursor(page.next?.page);
        setMore({ status: 'idle' });
      },
      (error: unknown) => gen === generation.current && setMore({ status: 'error', error }),
    );
  };

  return {
    state,
    hasMore: Boolean(cursor) && state.status === 'ready',
    loadMore,
    more,
    reload: () => setAttempt((n) => n + 1),
  };
}
