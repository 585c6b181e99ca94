import type { Queryable } from './db';

/**
 * A small in-process read-through cache for hot reads (token -> user, a
 * caller's access index, space rows), so a GET does not pay several queries.
 *
 * Invalidation is deliberately coarse: every successful mutation bumps one
 * generation counter and every older entry becomes invisible. An entry is
 * stored under the generation that was current when its load *started*, so a
 * read racing a write can never re-insert the pre-write value as fresh.
 * Entries also expire after `ttlMs`, which bounds staleness for writers that
 * cannot bump this process's counter (the admin CLI, other processes).
 */
export class ReadCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; expires: number; value: unknown }>();

  constructor(
    private readonly maxEntries = 20_000,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called after every local invalidation (fan-out publishes it to the other server processes). */
  onInvalidate: (() => void) | undefined;

  private readonly listeners = new Set<() => void>();

  /**
   * Calls `listener` after every invalidation, this process's or another's
   * (the sync endpoint re-checks its sockets' access then). Returns the
   * function that removes it. Listeners must be quick and must not throw.
   */
  addListener(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets everything cached so far (called after every write of this process). */
  invalidate(): void {
    this.invalidateFromElsewhere();
    this.onInvalidate?.();
  }

  /** Forgets everything because another process wrote (not published again: that would echo forever). */
  invalidateFromElsewhere(): void {
    this.generation++;
    this.entries.clear();
    for (const listener of this.listeners) listener();
  }

  /**
   * The cached value for `key` when it is current, else undefined; synchronous, for hot paths that can answer
   * without a promise (callers must not mutate it).
   */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit && hit.generation === this.generation && hit.expires > this.now() ? (hit.value as T) : undefined;
  }

  /** The cached value for `key`, or the result of `load()` (cached unless undefined). */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    // Not an async function: a hit costs one resolved promise, not an async frame.
    const hit = this.peek<T>(key);
    return hit !== undefined ? Promise.resolve(hit) : this.load(key, load);
  }

  private async load<T>(key: string, load: () => Promise<T>): Promise<T> {
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, { generation, expires: this.now() + this.ttlMs, value });
    }
    return value;
  }
}

/** A database handle that carries a read cache (transactions never do: they must read fresh). */
export interface WithReadCache {
  readonly cache: ReadCache;
}

/**
 * Reads through the cache of `q` when it has one (the top-level database),
 * or straight from `load` when it does not (a transaction). Cached values are
 * shared between requests: callers must not mutate them.
 */
export function cachedRead<T>(q: object, key: string, load: () => Promise<T>): Promise<T> {
  const cache = (q as Partial<WithReadCache>).cache;
  return cache instanceof ReadCache ? cache.get(key, load) : load();
}

/** The current cached value for `key` in the read cache of `q`, synchronously (undefined: not cached, or no cache). */
export function peekCached<T>(q: object, key: string): T | undefined {
  const cache = (q as Partial<WithReadCache>).cache;
  return cache instanceof ReadCache ? cache.peek<T>(key) : undefined;
}

/**
 * A SELECT whose rows are cached by its text and parameters (through the
 * database's read cache; uncached inside a transaction). For hot list reads.
 */
export function cachedQuery<T extends object>(
  q: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  return cachedRead(q, `sql:${sql}\u0000${JSON.stringify(params)}`, () => q.query<T>(sql, params));
}
