import type { Queryable } from '../store/db';
import { Lru } from '../store/lru';
import { versionContent } from '../store/openapi-specs';

/**
 * A processed spec version's bundle (external `$ref`s made internal by the processing), parsed
 * once per version and kept: versions are immutable, so the cache needs no invalidation. Shared by
 * the published site's API reference blocks and the pages generated from a spec.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

// Bundles are weighed by their JSON length: a few huge specs must not fill memory.
const bundles = new Lru<string, { doc: JsonObject; weight: number }>(32, {
  maxWeight: 64 * 1024 * 1024,
  weigh: (b) => b.weight,
});
const loading = new Map<string, Promise<JsonObject | undefined>>();

/** The parsed bundle of a version (one read per version, concurrent callers share it). */
export async function bundleOf(db: Queryable, versionId: string): Promise<JsonObject | undefined> {
  const hit = bundles.get(versionId);
  if (hit) return hit.doc;
  let pending = loading.get(versionId);
  if (!pending) {
    pending = versionContent(db, versionId, 'bundle')
      .then((text) => {
        if (text === undefined) return undefined;
        const doc = JSON.parse(text) as JsonObject;
        bundles.set(versionId, { doc, weight: text.length });
        return doc;
      })
      .finally(() => loading.delete(versionId));
    loading.set(versionId, pending);
  }
  return pending;
}
