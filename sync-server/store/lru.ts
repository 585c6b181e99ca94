/**
 * A bounded, approximately least-recently-used map for immutable values
 * (revisions and their serialized views): entries never go stale, they only
 * make room. Bounded by entry count and, when a `weigh` function is given, by
 * total weight (e.g. bytes), so a few huge revisions cannot exhaust memory.
 *
 * Recency is kept cheaply: a Map iterates in insertion order, so moving an
 * entry to the end means deleting and re-inserting it, and a hot key read on
 * every request would pay that each time. Instead each entry remembers when it
 * was (re-)inserted, and a read moves it only once it has fallen into the
 * older half of the map; an entry in the newer half is at least half the map
 * away from eviction already.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; stamp: number }>();
  private totalWeight = 0;
  /** Insertions so far: an entry's stamp is this count when it was (re-)inserted. */
  private inserts = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly limit: { maxWeight: number; weigh: (value: V) => number } | undefined = undefined,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    // Fewer insertions since this one than half the entries: it sits in the newer half, so it stays put.
    // (Half as a fraction: rounded down, a map of one entry re-inserted its entry on every read, and a Map
    // that keeps deleting and inserting rehashes itself over and over: ~3 µs of every hot GET page.)
    if (this.inserts - entry.stamp >= this.map.size / 2) {
      this.map.delete(key);
      entry.stamp = ++this.inserts;
      this.map.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.limit ? this.limit.weigh(value) : 0;
    // A value heavier than the whole budget is not kept at all.
    if (this.limit && weight > this.limit.maxWeight) return;
    this.map.set(key, { value, weight, stamp: ++this.inserts });
    this.totalWeight += weight;
    while (this.map.size > this.maxEntries || (this.limit && this.totalWeight > this.limit.maxWeight)) {
      this.delete(this.map.keys().next().value as K);
    }
  }

  private delete(key: K): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.totalWeight -= entry.weight;
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
