import type { Baseline, BaselineFile, BaselinePage } from './types';

/**
 * The baseline between two syncs. A read answers pages the repository added without ids (Folio
 * has not created them yet); once the caller has created them, `bindIds` writes their ids into
 * the baseline it stores, keyed the way the read answered them (`RepoPage.key`, `RepoFile.path`).
 */

/** The baseline with the pages and files named in `ids` (key or path -> id) bound to those ids. */
export function bindIds(baseline: Baseline, ids: ReadonlyMap<string, string>): Baseline {
  return {
    ...baseline,
    pages: baseline.pages.map((p): BaselinePage => (ids.has(p.key) ? { ...p, id: ids.get(p.key)! } : p)),
    files: baseline.files.map((f): BaselineFile => (ids.has(f.path) ? { ...f, id: ids.get(f.path)! } : f)),
  };
}

/** Pages of a baseline by key. */
export const pagesByKey = (baseline: Baseline | undefined): Map<string, BaselinePage> =>
  new Map((baseline?.pages ?? []).map((p) => [p.key, p]));

/** Keys unique within one baseline for pages that have no file: `group:<slug>`, `link:<slug>`. */
export function keyMaker(): (kind: 'group' | 'link', name: string) => string {
  const used = new Set<string>();
  return (kind, name) => {
    const base = `${kind}:${name || kind}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    return key;
  };
}
