import { signal, type ReadonlySignal, type Signal } from '@preact/signals';

/**
 * A client-side cache of one kind of server resource (an organization, its members, a space…),
 * keyed by id, as Outline's `app/stores` are: every screen reads through it, so a screen never
 * refetches what another has just loaded, and a write that changes a resource puts the server's
 * answer in (`set`) or marks it stale (`invalidate`), and every screen showing it re-renders.
 *
 * Each key's state is a Preact signal: components that read `state(key).value` re-render on any
 * change; code outside components uses `subscribe`.
 */

/** Where one resource is: loading (possibly with older data), loaded, or failed. */
export type ResourceState<T> =
  | { status: 'idle' }
  | { status: 'loading'; data?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: unknown; data?: T };

/** What `get`, `subscribe` and `invalidate` of a store need. */
export interface ResourceStoreOptions<K> {
  /** A string for a key (keys may be tuples, e.g. organization and collection). */
  keyOf?: (key: K) => string;
}

export class ResourceStore<K, T> {
  private readonly states = new Map<string, Signal<ResourceState<T>>>();
  private readonly inFlight = new Map<string, Promise<T>>();
  /** Bumped per key on every invalidate/set, so an older answer never overwrites a newer write. */
  private readonly versions = new Map<string, number>();
  private readonly keyOf: (key: K) => string;

  constructor(
    private readonly load: (key: K) => Promise<T>,
    options: ResourceStoreOptions<K> = {},
  ) {
    this.keyOf = options.keyOf ?? ((key) => String(key));
  }

  /** The state signal of `key` (created idle; reading it does not load: see `ensure`). */
  state(key: K): ReadonlySignal<ResourceState<T>> {
    return this.cell(this.keyOf(key));
  }

  /** Starts loading `key` unless it is loaded or loading. */
  ensure(key: K): void {
    const s = this.cell(this.keyOf(key)).peek();
    if (s.status === 'idle') void this.get(key).catch(() => undefined);
  }

  /** The resource, from the cache when loaded, else from the server (one request for concurrent callers). */
  get(key: K): Promise<T> {
    const id = this.keyOf(key);
    const cell = this.cell(id);
    const current = cell.peek();
    if (current.status === 'ready') return Promise.resolve(current.data);
    return this.inFlight.get(id) ?? this.fetch(key, id);
  }

  /** The loaded value, if any, without loading. */
  peek(key: K): T | undefined {
    const s = this.cell(this.keyOf(key)).peek();
    return 'data' in s ? s.data : undefined;
  }

  /** Puts a value the server answered (after a write) in the cache. */
  set(key: K, data: T): void {
    const id = this.keyOf(key);
    this.bump(id);
    this.inFlight.delete(id);
    this.cell(id).value = { status: 'ready', data };
  }

  /** Changes a loaded value in place (e.g. one space of a list renamed); nothing when not loaded. */
  update(key: K, change: (data: T) => T): void {
    const data = this.peek(key);
    if (data !== undefined) this.set(key, change(data));
  }

  /**
   * Marks `key` stale (every key when omitted). A key some screen shows is fetched again at once
   * (its screen keeps the old data meanwhile); others load on next use.
   */
  invalidate(key?: K): void {
    const ids = key === undefined ? [...this.states.keys()] : [this.keyOf(key)];
    for (const id of ids) {
      const cell = this.states.get(id);
      this.bump(id);
      this.inFlight.delete(id);
      if (!cell) continue;
      const old = cell.peek();
      const data = 'data' in old ? old.data : undefined;
      cell.value = { status: 'idle' };
      // Somebody is watching (a mounted screen, a subscriber): reload now, keeping what it shows.
      if (this.watched.has(id) && (this.watched.get(id) ?? 0) > 0) {
        cell.value = data === undefined ? { status: 'loading' } : { status: 'loading', data };
        void this.fetchById(id).catch(() => undefined);
      }
    }
  }

  /** Calls `listener` with every new state of `key` (and loads it); returns the unsubscribe. */
  subscribe(key: K, listener: (state: ResourceState<T>) => void): () => void {
    const id = this.keyOf(key);
    this.keys.set(id, key);
    this.watch(id, +1);
    const stop = this.cell(id).subscribe(listener);
    this.ensure(key);
    return () => {
      stop();
      this.watch(id, -1);
    };
  }

  /** Marks a key as shown by a mounted component (see `useResource`), so invalidation reloads it. */
  retain(key: K): () => void {
    const id = this.keyOf(key);
    this.keys.set(id, key);
    this.watch(id, +1);
    return () => this.watch(id, -1);
  }

  private readonly watched = new Map<string, number>();
  private readonly keys = new Map<string, K>();

  private watch(id: string, delta: number): void {
    this.watched.set(id, (this.watched.get(id) ?? 0) + delta);
  }

  private cell(id: string): Signal<ResourceState<T>> {
    let cell = this.states.get(id);
    if (!cell) {
      cell = signal<ResourceState<T>>({ status: 'idle' });
      this.states.set(id, cell);
    }
    return cell;
  }

  private bump(id: string): number {
    const next = (this.versions.get(id) ?? 0) + 1;
    this.versions.set(id, next);
    return next;
  }

  private fetchById(id: string): Promise<T> {
    const key = this.keys.get(id);
    if (key === undefined) return Promise.reject(new Error(`No key for ${id}`));
    return this.fetch(key, id);
  }

  private fetch(key: K, id: string): Promise<T> {
    this.keys.set(id, key);
    const cell = this.cell(id);
    const version = this.bump(id);
    const old = cell.peek();
    const data = 'data' in old ? old.data : undefined;
    cell.value = data === undefined ? { status: 'loading' } : { status: 'loading', data };
    const request = this.load(key).then(
      (value) => {
        if (this.versions.get(id) === version) {
          this.inFlight.delete(id);
          cell.value = { status: 'ready', data: value };
        }
        return value;
      },
      (error: unknown) => {
        if (this.versions.get(id) === version) {
          this.inFlight.delete(id);
          cell.value = data === undefined ? { status: 'error', error } : { status: 'error', error, data };
        }
        throw error;
      },
    );
    this.inFlight.set(id, request);
    return request;
  }
}
