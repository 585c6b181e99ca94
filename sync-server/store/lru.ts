/**
 * A bounded least-recently-used map for immutable values (revisions and their
 * serialized views): entries never go stale, they only make room.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      // Re-insert to mark as most recently used (Maps iterate in insertion order).
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  /** The cached value, or `make()`'s result stored (unless undefined). */
  async getOrMake(key: K, make: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await make();
    if (value !== undefined) this.set(key, value);
    return value;
  }
}
