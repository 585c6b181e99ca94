/**
 * Which pages of a space's tree are collapsed, remembered in localStorage
 * per space (and change request), so the tree looks the same after a reload
 * or in the next session. Pages are expanded unless collapsed: a new
 * sub-page shows where it was created. Storage failures (private mode, quota)
 * only lose the memory, never the tree.
 */
export class CollapsedPages {
  private readonly ids: Set<string>;

  /** @param key storage key suffix; undefined keeps the state in memory only. */
  constructor(private readonly key: string | undefined) {
    this.ids = new Set(key ? load(storageKey(key)) : []);
  }

  /** Whether `id` is collapsed. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Collapses or expands `id`; returns whether anything changed. */
  set(id: string, collapsed: boolean): boolean {
    if (this.ids.has(id) === collapsed) return false;
    if (collapsed) this.ids.add(id);
    else this.ids.delete(id);
    this.save();
    return true;
  }

  /** Drops ids for which `keep` is false (deleted pages), so the stored list does not grow forever. */
  prune(keep: (id: string) => boolean): void {
    let changed = false;
    for (const id of this.ids)
      if (!keep(id)) {
        this.ids.delete(id);
        changed = true;
      }
    if (changed) this.save();
  }

  private save(): void {
    if (!this.key) return;
    try {
      localStorage.setItem(storageKey(this.key), JSON.stringify([...this.ids]));
    } catch {
      // Storage full or unavailable: the state lives on in memory.
    }
  }
}

function storageKey(key: string): string {
  return `folio.tree.collapsed.${key}`;
}

function load(key: string): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
