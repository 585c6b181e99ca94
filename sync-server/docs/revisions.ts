import type { Queryable } from '../store/db';
import { Lru } from '../store/lru';
import { loadRevision, type RevisionRecord } from './revision-store';

/**
 * The one cache of loaded revisions of a server. Revisions are immutable: the
 * last ones read stay in memory (and so do their serialized forms), so REST
 * reads, PDFs and published sites never walk a Y.Doc and rarely touch the
 * database.
 */
export class Revisions {
  /** Loaded revisions (a 1,000-page space is a few MB in memory; a few dozen stay). */
  private readonly records = new Lru<string, RevisionRecord>(32);
  /** Serialized responses per revision and variant, at most 256 MB (UTF-16 code units ~ bytes). */
  readonly serialized = new Lru<string, string>(10_000, { maxWeight: 256 * 1024 * 1024, weigh: (json) => json.length });

  constructor(private readonly db: Queryable) {}

  get(id: string): Promise<RevisionRecord | undefined> {
    return this.records.getOrMake(id, () => loadRevision(this.db, id));
  }

  /** The revision when it is loaded already, synchronously (undefined: ask `get`). */
  loaded(id: string): RevisionRecord | undefined {
    return this.records.get(id);
  }

  /** The cached JSON for `key`, or `make()` serialized and kept. */
  async json(key: string, make: () => unknown): Promise<string> {
    const hit = this.serialized.get(key);
    if (hit !== undefined) return hit;
    const json = JSON.stringify(make());
    this.serialized.set(key, json);
    return json;
  }
}
