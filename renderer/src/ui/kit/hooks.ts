import { useEffect, useRef, useState } from 'preact/hooks';
import type { ResourceState, ResourceStore } from '../../stores/resource';

/**
 * The hooks the screens share: everything a screen starts (a timer, a listener, a subscription)
 * is stopped when it unmounts, so nothing outlives its screen.
 */

/** Runs `tick` every `ms` while mounted (and while `ms` is defined). */
export function useInterval(tick: () => void, ms: number | undefined): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (ms === undefined) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

/** Listens to `type` on `target` while mounted. */
export function useEventListener<K extends keyof WindowEventMap>(
  target: Window,
  type: K,
  listener: (event: WindowEventMap[K]) => void,
): void;
export function useEventListener(target: EventTarget, type: string, listener: (event: Event) => void): void;
export function useEventListener(target: EventTarget, type: string, listener: (event: Event) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const handler = (event: Event) => latest.current(event);
    target.addEventListener(type, handler);
    return () => target.removeEventListener(type, handler);
  }, [target, type]);
}

/** A resource's state from its store, loaded on mount, re-rendering on every change; `retry` reloads it. */
export function useResource<K, T>(store: ResourceStore<K, T>, key: K): { state: ResourceState<T>; retry: () => void } {
  const cell = store.state(key);
  useEffect(() => {
    const release = store.retain(key);
    store.ensure(key);
    return release;
    // The key's string form is what identifies it; a new tuple of the same ids is the same key.
  }, [store, JSON.stringify(key)]);
  return { state: cell.value, retry: () => store.invalidate(key) };
}

/**
 * A one-off load (what no store holds: a form's initial data, a search): its state, reloaded when
 * `deps` change, with stale answers dropped.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): { state: ResourceState<T>; retry: () => void } {
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState((old) =>
      'data' in old && old.data !== undefined ? { status: 'loading', data: old.data } : { status: 'loading' },
    );
    load().then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, attempt]);
  return { state, retry: () => setAttempt((n) => n + 1) };
}

/** Sets the window title while mounted (`Folio` alone when `title` is empty), and resets it after. */
export function useWindowTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Folio` : 'Folio';
  }, [title]);
  useEffect(
    () => () => {
      document.title = 'Folio';
    },
    [],
  );
}
